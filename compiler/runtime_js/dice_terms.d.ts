/** Dice terms: pools that reroll, explode, keep and count, and sums of them. */

import type { JSON } from "./json.js";

export type Op = ">=" | "<=" | ">" | "<" | "=";
export type Explode = "!" | "!!" | "!o";
export type Keep = "kh" | "kl" | "dh" | "dl";

export declare const COMPARISONS: readonly Op[];
export declare const EXPLODES: readonly Explode[];
export declare const KEEPS: readonly Keep[];

/** A value compared and shown by its fields; its JSON is the Python runtime's. */
export declare abstract class Value {
  /** The value as plain JSON-able data, keyed by its fields' snake_case names. */
  toDict(): { [key: string]: JSON };
  toJSON(): { [key: string]: JSON };
  /** Whether `other` is a value of the same class and the same fields. */
  equals(other: unknown): boolean;
}

/** A comparison of a die's face (or result) with `value`: `>=5`. */
export declare class Compare extends Value {
  constructor(op: Op, value: number);
  readonly op: Op;
  readonly value: number;
  /** Whether `face` meets the comparison. */
  meets(face: number): boolean;
  toString(): string;
}

export interface PoolOptions {
  fudge?: boolean;
  reroll?: Compare | null;
  rerollOnce?: boolean;
  explode?: Explode | null;
  explodeAt?: Compare | null;
  keep?: Keep | null;
  keepCount?: number;
  target?: Compare | null;
  multiplier?: number;
  /** A die of the rules' own: its faces (numbers, or arrays of symbols). */
  listed?: readonly Face[] | null;
}

/** A face of a die: a number, or the symbols it shows (a die of the rules' own). */
export type Face = number | readonly string[];

/** `count` dice of `sides` (Fudge dice when `fudge`), rolled, kept, summed or counted. */
export declare class Pool extends Value {
  constructor(count: number, sides: number, options?: PoolOptions);
  readonly count: number;
  readonly sides: number;
  readonly fudge: boolean;
  readonly reroll: Compare | null;
  readonly rerollOnce: boolean;
  readonly explode: Explode | null;
  /** The faces that explode (null: the highest). */
  readonly explodeAt: Compare | null;
  readonly keep: Keep | null;
  readonly keepCount: number;
  readonly target: Compare | null;
  readonly multiplier: number;
  /** A die of the rules' own: its faces, in order (null: 1 to sides). */
  readonly listed: readonly Face[] | null;
  /** Whether its faces are numbers (not a die of symbols). */
  readonly numeric: boolean;
  /** The face of a die whose `randint(1, sides)` gave `rolled`. */
  face(rolled: number): Face;
  /** Why the pool cannot be rolled, or null. */
  problem(): string | null;
  /** The faces of one die, in order of `randint(1, sides)`'s answers. */
  readonly faces: number[];
  /** The highest face (the one that explodes, without `explodeAt`). */
  readonly top: number;
  /** Whether a die showing `face` explodes (with `explode`). */
  explodes(face: number): boolean;
  /** The faces a die can show once rerolled. */
  finalFaces(): number[];
  /** How many dice the pool keeps. */
  readonly kept: number;
  toString(): string;
}

/** One term of a sum: a pool or a whole number, added (1) or subtracted (-1). */
export declare class Term extends Value {
  constructor(sign: 1 | -1, value: Pool | number);
  readonly sign: 1 | -1;
  readonly value: Pool | number;
}

/** Pools and whole numbers added and subtracted, in the order written. */
export declare class DiceSum extends Value {
  constructor(terms: Iterable<Term>);
  readonly terms: readonly Term[];
  /** The sum's pools, in order. */
  readonly pools: Pool[];
  /** The notation, as Python's str() writes it: `4d6kh3+2`. */
  toString(): string;
}
