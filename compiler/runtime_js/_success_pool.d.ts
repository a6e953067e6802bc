/** Success pools: roll a handful of dice and count those that meet a target. */
import type { Fraction, RNG } from "./dice.js";

/** One roll of a pool. */
export interface PoolResult {
  readonly successes: number;
  readonly dramaticFailure: boolean;
  /** Every die result, re-rolls included, in order. */
  readonly rolls: readonly number[];
}

/** The exact chance of each success count from 0 up to a limit. */
export declare class PoolDistribution extends Map<number, Fraction> {
  constructor(entries: Iterable<readonly [number, Fraction]>, tail: Fraction, dramaticFailure: Fraction);
  /** The chance of more successes than the counts listed. */
  readonly tail: Fraction;
  /** The chance of a dramatic failure. */
  readonly dramaticFailure: Fraction;
  /** The exact chance of `successes` or more. */
  atLeast(successes: number): Fraction;
  toDict(): Record<string, string>;
  toJSON(): Record<string, string>;
}

/** The figures of a success-counting dice pool (all from the rules data). */
export declare class SuccessPool {
  constructor(
    sides: number,
    successAt: number,
    againAt: number,
    chanceSuccessAt: number,
    chanceDramaticAt: number,
    listedBeyond: number,
    maxDice: number,
  );
  readonly sides: number;
  readonly successAt: number;
  readonly againAt: number;
  readonly chanceSuccessAt: number;
  readonly chanceDramaticAt: number;
  readonly listedBeyond: number;
  readonly maxDice: number;
  /** Roll a pool of `dice` dice (a chance die for 0 or fewer). */
  roll(dice: number, rng: RNG): PoolResult;
  /** The exact chance of each success count for a pool of `dice`. */
  distribution(dice: number): PoolDistribution;
  /** The exact expected number of successes. */
  mean(dice: number): Fraction;
  toDict(): Record<string, number>;
  toJSON(): Record<string, number>;
}
