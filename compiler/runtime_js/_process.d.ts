/** Processes: a seeded, time-ordered simulation of courses, checks and scores. */
import type { Dice, RNG } from "./dice.js";

/** One course of a process, with its figures in clock units. */
export interface Course {
  readonly labels: readonly unknown[];
  readonly start: number;
  readonly onset: Dice | null;
  readonly target: number;
  readonly pool: Dice | null;
  readonly every: number | null;
  readonly until: number | null;
  readonly onFailure: readonly (readonly [number, Dice])[];
  readonly checkLimit: number | null;
  readonly steps: readonly string[];
}

/** Every figure and name a process runs on (all from the rules data). */
export interface ProcessSpec {
  readonly ticks: Readonly<Record<string, number>>;
  readonly check: Dice;
  readonly alwaysFails: number | null;
  readonly alwaysSucceeds: number | null;
  readonly enterEvent: string | null;
  readonly leaveEvent: string | null;
  readonly onsetEvent: string;
  readonly checkEvent: string;
  readonly endEvent: string | null;
  readonly scoreEvents: readonly string[];
  readonly poolScore: number;
  readonly poolDeal: Dice | null;
  readonly poolInterval: number;
  readonly poolDivide: ((pool: number) => number) | null;
  readonly trackScore: number | null;
  readonly trackEvery: number;
  readonly trackRoll: Dice | null;
  readonly trackEvent: string | null;
  readonly recoverScore: number | null;
  readonly recoverAmount: number;
  readonly recoverInterval: number;
  readonly recoverEvent: string | null;
  readonly labelCount: number;
  readonly outcomeCount: number;
  readonly stateEvent: string | null;
}

/** What a run gives: its events and the figures its totals are made of. */
export interface ProcessRun<E, S = unknown> {
  readonly events: readonly E[];
  readonly dealt: readonly number[];
  readonly marked: number;
  readonly conditions: readonly unknown[];
  readonly state: S | null;
}

export declare function runProcess<E, S = unknown>(
  spec: ProcessSpec,
  courses: readonly Course[],
  leaveAt: number | null,
  bonus: number,
  track: { apply(roll: number): object } | null,
  make: (values: unknown[]) => E,
  rng: RNG,
  state?: S | null,
): ProcessRun<E, S>;
