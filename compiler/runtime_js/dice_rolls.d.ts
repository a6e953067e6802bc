/** Dice rolls: a `DiceSum` rolled with the caller's rng, every die in the order written. */

import type { RNG } from "./dice.js";
import { Value } from "./dice_terms.js";
import type { DiceSum, Pool } from "./dice_terms.js";

/** `value` if it is a safe integer, else a RuleInputError naming `what`. */
export declare function safe(value: number, what: string): number;

/** One roll of a pool: each die's result, faces shown, kept, hits, and the pool's value. */
export declare class PoolRoll extends Value {
  constructor(
    dice: readonly number[],
    faces: readonly (readonly number[])[],
    kept: readonly boolean[],
    hits: readonly boolean[],
    value: number,
  );
  readonly dice: readonly number[];
  readonly faces: readonly (readonly number[])[];
  readonly kept: readonly boolean[];
  readonly hits: readonly boolean[];
  readonly value: number;
  toDict(): PoolRollData;
  toJSON(): PoolRollData;
}

/** A pool's roll as the project's JSON. */
export type PoolRollData = {
  dice: number[];
  faces: number[][];
  kept: boolean[];
  hits: boolean[];
  value: number;
};

/** A roll as the project's JSON. */
export type RolledData = {
  total: number;
  terms: (PoolRollData | number)[];
};

/** A roll of a `DiceSum`: its `total` and each term's roll (a whole number stands for itself, signed). */
export declare class Rolled extends Value {
  constructor(total: number, terms: readonly (PoolRoll | number)[]);
  readonly total: number;
  readonly terms: readonly (PoolRoll | number)[];
  /** The dice the pools kept, in order. */
  readonly results: number[];
  /** Every face rolled, in order, rerolled and dropped ones included. */
  readonly rolled: number[];
  toDict(): RolledData;
  toJSON(): RolledData;
}

/** Roll `dice` with `rng`: one `randint` per die, in the order written. */
export declare function roll(dice: DiceSum, rng: RNG): Rolled;

/**
 * The total of one roll of `pool`: the same dice, rolled in the same order and
 * refused alike, as `roll(new DiceSum([new Term(1, pool)]), rng).total`.
 */
export declare function total(pool: Pool, rng: RNG): number;

/** How many times `symbol` shows on `faces` (dice of symbols). */
export declare function tally(faces: readonly (readonly string[])[], symbol: string): number;
