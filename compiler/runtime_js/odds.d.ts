/** Odds of a rule's answer: exact chances built from the chances of its dice. */

import type { Dice, Fraction } from "./dice.js";
import type { Pool } from "./dice_terms.js";

/**
 * Each answer a rule can give with its exact chance, answers ascending, and
 * the `tail`: the chance an explosion cut off at the depth leaves unknown (the
 * chances listed sum to `1 - tail`).
 */
export declare class Chances<K> extends Map<K, Fraction> {
  constructor(entries: Iterable<readonly [K, Fraction]>, tail: Fraction);
  /** The chance left unknown by an explosion cut off at the depth. */
  readonly tail: Fraction;
  /** The chance of an answer of `value` or more (whole-number answers; the tail counted in). */
  atLeast(value: number): Fraction;
  toJSON(): Record<string, string>;
}

/** Chances of a part of an expression as whole `weights` over `denom`; `cut`:
 * the weight of the rolls an explosion's depth cut off. */
export declare class Dist {
  constructor(weights: Iterable<readonly [unknown, bigint]>, cut: bigint, denom: bigint);
  readonly weights: ReadonlyMap<unknown, bigint>;
  readonly cut: bigint;
  readonly denom: bigint;
}

/** A value known for certain. */
declare function constant(value: unknown): Dist;
export { constant as const };

/** The chances of `how` of independent parts' values. */
export declare function apply(how: (...values: never[]) => unknown, ...parts: Dist[]): Dist;

/** The chances of `then(value)`'s answer, for each value `part` takes. */
export declare function bind(part: Dist, then: (value: never) => Dist): Dist;

/** `part`'s chances, its values with the same `key` as one (the first standing for all). */
export declare function group(part: Dist, key: (value: never) => unknown): Dist;
export declare function repeated(part: Dist, face: number): Dist;
/** A guard's refusal where the odds reach it: RuleInputError saying `message`. */
export declare function refuse(message: string): Dist;

/** One dice term: `make(count, sides)`'s total, or with `listed` the dice it
 * keeps (a sorted list); no dice (a count of 0) total 0. */
export declare function dice(
  make: (count: number, sides: number) => Pool,
  count: Dist,
  sides: Dist,
  listed: boolean,
  depth?: number,
): Dist;

/** A roll of a dice value (`roll(d)`): its exact distribution. */
export declare function rolled(dice: Dice): Dist;

/** The chances another rule's odds function answers, as a part of the caller's. */
export declare function called(chances: Chances<unknown>): Dist;

/** The chances as exact fractions, answers ascending (`labels` in their enum's order). */
export declare function answer(
  part: Dist,
  labels?: readonly string[] | null,
): Chances<unknown>;

/** The dice `pool` keeps, lowest first, as a multiset (a sorted list). */
export declare function results(pool: Pool, depth: number): Dist;
