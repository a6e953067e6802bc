/** Dice rolls: a `DiceSum` rolled with the caller's rng, every die in the order written. */

import type { Fraction, RNG } from "./dice.js";
import { Value } from "./dice_terms.js";
import type { DiceSum, Num, Pool } from "./dice_terms.js";

/** `value` if it is a safe integer, else a RuleInputError naming `what`. */
export declare function safe(value: number, what: string): number;

/** One roll of a pool: each die's result, faces shown, kept, hits, fails, and the pool's value. */
export declare class PoolRoll extends Value {
  constructor(
    dice: readonly number[],
    faces: readonly (readonly number[])[],
    kept: readonly boolean[],
    hits: readonly boolean[],
    value: number,
    fails?: readonly boolean[] | null,
  );
  readonly dice: readonly number[];
  readonly faces: readonly (readonly number[])[];
  readonly kept: readonly boolean[];
  readonly hits: readonly boolean[];
  /** Whether each kept die meets the pool's failure. */
  readonly fails: readonly boolean[];
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
  fails: boolean[];
};

/** A part of a roll: a pool's roll, a number (a fraction's JSON "7/2"), or a node's roll. */
export type Part = PoolRoll | number | Fraction | NodeRoll;
/** A part of a roll as the project's JSON. */
export type PartData = PoolRollData | number | string | NodeRollData;

/** A node's roll as the project's JSON. */
export type NodeRollData = {
  value: number | string;
  parts: PartData[];
  kept: boolean[];
};

/**
 * One roll of a node above the pools (a product, a call, a group, a test, a
 * label, a sum in parentheses): its value, each part's roll in order, and
 * (a group) which items count.
 */
export declare class NodeRoll extends Value {
  constructor(value: Num, parts: readonly Part[], kept?: readonly boolean[]);
  readonly value: Num;
  readonly parts: readonly Part[];
  readonly kept: readonly boolean[];
  toDict(): NodeRollData;
  toJSON(): NodeRollData;
}

/** A roll as the project's JSON. */
export type RolledData = {
  total: number | string;
  terms: PartData[];
};

/** A roll of a `DiceSum`: its exact `total` and each term's roll (a number stands for itself, signed). */
export declare class Rolled extends Value {
  constructor(total: Num, terms: readonly Part[]);
  readonly total: Num;
  readonly terms: readonly Part[];
  /** The dice the pools kept, in order. */
  readonly results: number[];
  /** Every face rolled, in order, rerolled and dropped ones included. */
  readonly rolled: number[];
  toDict(): RolledData;
  toJSON(): RolledData;
}

/** Roll `dice` with `rng`: one `randint` per die, in the order written (the tree depth first). */
export declare function roll(dice: DiceSum, rng: RNG): Rolled;

/**
 * The total of one roll of `pool`: the same dice, rolled in the same order and
 * refused alike, as `roll(new DiceSum([new Term(1, pool)]), rng).total`.
 */
export declare function total(pool: Pool, rng: RNG): number;

/** How many times `symbol` shows on `faces` (dice of symbols). */
export declare function tally(faces: readonly (readonly string[])[], symbol: string): number;
