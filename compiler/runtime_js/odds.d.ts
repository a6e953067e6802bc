/** Odds of a rule's answer: exact chances built from the chances of its dice. */

import type { Dice, Fraction } from "./dice.js";
import type { Pool } from "./dice_terms.js";
import type { Dist } from "./_dist.js";
import type { Fold, Group } from "./_multiset.js";

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

/**
 * Each field's own chances, by the field's name (a read-only Map): what an
 * odds function answers for a rule whose odds are of several fields. Its JSON
 * is an object of the fields by the names the rules give them.
 */
export declare class OddsByField<
  T extends { readonly [field: string]: Chances<unknown> },
> extends Map<keyof T & string, T[keyof T & string]> {
  constructor(fields: ReadonlyArray<readonly [string, Chances<unknown>]>, names?: readonly string[] | null);
  get<F extends keyof T & string>(field: F): T[F];
  toDict(): Record<string, Chances<unknown>>;
  toJSON(): Record<string, Record<string, string>>;
}

export { Dist } from "./_dist.js";
export { let, run, source } from "./_plan.js";

/** A value known for certain. */
declare function constant(value: unknown): Dist;
export { constant as const };

type Make = (count: number, sides: number) => Pool;

/** A dice term's total; no dice total 0. */
export declare function total(make: Make, count: number, sides: number, depth?: number): Dist;
/** The dice a pool keeps (a sorted list). */
export declare function kept(make: Make, count: number, sides: number, depth?: number): Dist;
/** A pool whose dice nothing reads: its chance of being known. */
export declare function unread(make: Make, count: number, sides: number, depth?: number): Dist;
/** A pool's dice as a group of a multiset. */
export declare function dice(make: Make, count: number, sides: number, depth?: number): Group;
/** One item of a list, of the chances `part`. */
export declare function item(part: Dist): Group;
/** The chances of the folds' values over the dice of `groups`. */
export declare function pool(groups: readonly Group[], folds: readonly Fold[]): Dist;
/** A roll of a dice value (`roll(d)`): its exact distribution. */
export declare function rolled(dice: Dice): Dist;
/** The chances another rule's odds function answers, as a source. */
export declare function called(chances: Chances<unknown>): Dist;
/** A case that refuses, reached: the odds refuse as the rule does. */
export declare function refused(text: string): never;
/** The chances of the one value a run answers. */
export declare function chances(part: Dist, labels?: readonly string[] | null): Chances<unknown>;
/** Each field's own chances. */
export declare function byField(
  part: Dist,
  names: ReadonlyArray<readonly [string, string]>,
  labels: ReadonlyArray<readonly string[] | null>,
): OddsByField<{ readonly [field: string]: Chances<unknown> }>;
/** The chances of the fields together, each answer a list of them. */
export declare function joint(part: Dist, labels: ReadonlyArray<readonly string[] | null>): Chances<unknown>;

/** The chances as exact fractions, answers ascending (`labels` in their enum's order). */
export declare function answer(
  part: Dist,
  labels?: readonly string[] | null,
): Chances<unknown>;

/** The dice `pool` keeps, lowest first, as a multiset (a sorted list). */
export declare function results(pool: Pool, depth: number): Dist;
