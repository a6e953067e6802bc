/** Dice odds: the exact distribution of a `DiceSum`, by convolution and dynamic programming. */

import type { Fraction } from "./dice.js";
import { Value } from "./dice_terms.js";
import type { DiceSum, Num, Pool } from "./dice_terms.js";

/** How many more dice an explosion is followed to, unless told. */
export declare const DEPTH: number;
/** The most dice deep an explosion is followed to (a limit of the runtime). */
export declare const MAX_DEPTH: number;
/** The most steps one call takes working out exact odds (from ./_support.js). */
export declare const MAX_WORK: number;

/** The chances of the values known, ascending: a whole value is a number (its
 * key), one that is not a frozen fraction (a key by identity: iterate to find
 * it); its JSON keys are the Python runtime's ("7/2"). */
export type OddsChances = Map<Num, Fraction> & { toJSON(): Record<string, string> };

/** The exact chance of each value (ascending), and the tail an explosion cut off leaves unknown. */
export declare class Odds extends Value {
  constructor(chances: Map<Num, Fraction>, tail: Fraction);
  /** The chances of the values known, ascending (JSON: the Python runtime's). */
  readonly chances: OddsChances;
  readonly tail: Fraction;
  /** The smallest value known. */
  readonly min: Num;
  /** The largest value known. */
  readonly max: Num;
  /** The exact mean, or null when there is a tail. */
  readonly mean: Fraction | null;
  /** The exact variance, or null when there is a tail. */
  readonly variance: Fraction | null;
  toDict(): OddsData;
  toJSON(): OddsData;
}

/** Odds as the project's JSON: each value's chance and the tail, "n/d" each. */
export type OddsData = {
  chances: Record<string, string>;
  tail: string;
};

/** The exact odds of `dice`, explosions followed `depth` (0..100, default 10) dice deep. */
export declare function odds(dice: DiceSum, depth?: number): Odds;
/** The steps `odds(dice, depth)` takes, worked out before any of the work (`odds` refuses past MAX_WORK). */
export declare function oddsWork(dice: DiceSum, depth?: number): bigint;
/** The odds of one pool alone as the rules' success pools list them (each count up to `depth` whole, where every exploding face counts). */
export declare function countedOdds(pool: Pool, depth?: number): Odds;
/** The steps `countedOdds(pool, depth)` takes, worked out before any of the work. */
export declare function countedWork(pool: Pool, depth?: number): bigint;
/** At most how many chains of k exploded faces a die of `pool` has, for each k up to `depth`. */
export declare function chainLevels(pool: Pool, depth: number, score: ((face: number) => number) | null): bigint[];
/** The steps `chains` takes for one die of `pool`. */
export declare function chainCost(pool: Pool, depth: number, score: ((face: number) => number) | null): bigint;

/** Chances as whole weights over `denom`; `top`: the weight of the tail. */
export declare class Weights {
  constructor(weights: Iterable<readonly [number, bigint]>, top: bigint, denom: bigint);
  readonly weights: ReadonlyMap<number, bigint>;
  readonly top: bigint;
  readonly denom: bigint;
}

/** One die's final face, rerolls done. */
export declare function faceWeights(pool: Pool): Weights;

/** One die with its explosion: the sum of `score` over its dice (each face
 * scored on its own: its face for a sum, 1 or 0 for a count). */
export declare function chainWeights(pool: Pool, depth: number, score: (face: number) => number): Weights;
/** One die with the dice its explosion adds, each chain folded with `add`: its outcomes by `key`, the weight cut off at `depth`, the denominator. */
export declare function chains<V>(
  pool: Pool,
  depth: number,
  empty: V,
  add: (sofar: V, face: number) => V,
  key?: (value: V) => unknown,
): [Map<unknown, [V, bigint]>, bigint, bigint];
