/** Dice terms: pools that reroll, explode, keep and count, and sums of them. */

import type { Fraction } from "./dice.js";
import type { Node } from "./dice_tree.js";
import type { JSON } from "./json.js";

export type Op = ">=" | "<=" | ">" | "<" | "=";
export type Explode = "!" | "!!" | "!p" | "!o";
export type Keep = "kh" | "kl" | "dh" | "dl";
export type Sort = "a" | "d";
/**
 * A dice expression's value, exact: a `number` (a safe integer) when whole,
 * else a frozen fraction of bigints in lowest terms (its JSON "7/2", as the
 * Python runtime writes a Fraction).
 */
export type Num = number | Fraction;

export declare const COMPARISONS: readonly Op[];
export declare const EXPLODES: readonly Explode[];
export declare const KEEPS: readonly Keep[];
export declare const SORTS: readonly Sort[];
/** The faces of a Fudge die `dF.1`: one -1, four blanks, one +1. */
export declare const FUDGE_1: readonly number[];

/** A value compared and shown by its fields; its JSON is the Python runtime's. */
export declare abstract class Value {
  /** How tightly a node of a dice expression binds when written (-1: no node). */
  static readonly PRECEDENCE: number;
  /** The nodes of a dice expression right under this one, in the order written. */
  children(): readonly Node[];
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

/** Two comparisons or more: a face meets it when it meets any (`r1r3`). */
export declare class AnyOf extends Value {
  constructor(conditions: Iterable<Compare>);
  readonly conditions: readonly Compare[];
  /** Whether `face` meets any of its comparisons. */
  meets(face: number): boolean;
  toString(): string;
}

/** What a die's face is tested against: one comparison, or any of several. */
export type Condition = Compare | AnyOf;

/** Whether `value` is a condition (a Compare or an AnyOf). */
export declare function isCondition(value: unknown): value is Condition;
/** A condition as the notation writes it, each comparison after `token`. */
export declare function conditionText(condition: Condition, token: string): string;

export interface PoolOptions {
  fudge?: boolean;
  minimum?: number | null;
  maximum?: number | null;
  reroll?: Condition | null;
  rerollOnce?: boolean;
  explode?: Explode | null;
  explodeAt?: Condition | null;
  unique?: boolean;
  keep?: Keep | null;
  keepCount?: number;
  target?: Condition | null;
  failure?: Condition | null;
  sort?: Sort | null;
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
  /** A face below it counts as it (before any test). */
  readonly minimum: number | null;
  /** A face above it counts as it (before any test). */
  readonly maximum: number | null;
  readonly reroll: Condition | null;
  readonly rerollOnce: boolean;
  readonly explode: Explode | null;
  /** The faces that explode (null: the highest). */
  readonly explodeAt: Condition | null;
  /** A die showing an earlier die's face is rolled again. */
  readonly unique: boolean;
  readonly keep: Keep | null;
  readonly keepCount: number;
  readonly target: Condition | null;
  /** Kept dice meeting it count -1 (with a target). */
  readonly failure: Condition | null;
  /** The roll shows its dice sorted (display only). */
  readonly sort: Sort | null;
  readonly multiplier: number;
  /** A die of the rules' own: its faces, in order (null: 1 to sides). */
  readonly listed: readonly Face[] | null;
  /** Whether its faces are numbers (not a die of symbols). */
  readonly numeric: boolean;
  /** The face of a die whose `randint(1, sides)` gave `rolled`. */
  face(rolled: number): Face;
  /** Why the pool cannot be rolled, or null. */
  problem(): string | null;
  /** The faces of one die, in order of `randint(1, sides)`'s answers (before minimum and maximum). */
  readonly faces: number[];
  /** The faces a die can show as rolled, minimum and maximum applied. */
  readonly shownFaces: number[];
  /** `face` raised to `minimum` and lowered to `maximum`. */
  bounded(face: number): number;
  /** The highest face (the one that explodes, without `explodeAt`). */
  readonly top: number;
  /** Whether a die showing `face` explodes (with `explode`). */
  explodes(face: number): boolean;
  /** The faces a die can show once rerolled. */
  finalFaces(): number[];
  /** How many of `rolled` dice the pool keeps. */
  keeps(rolled: number): number;
  /** How many dice the pool keeps (not counting dice explosions add). */
  readonly kept: number;
  toString(): string;
}

/** Whether `value` is a node of a dice expression. */
export declare function isNode(value: unknown): value is Node;
/** A number as the notation writes it: `3`, `1.5`, `(1/3)`. */
export declare function numberText(value: Num): string;
/** `node`'s text where the place needs a precedence of `need` or more (bracketed where it binds looser). */
export declare function written(node: Node, need: number): string;
/** The pools of a node, in the order written (depth first). */
export declare function poolsIn(node: Node): Pool[];

/** One term of a sum: any node of a dice expression, added (1) or subtracted (-1). */
export declare class Term extends Value {
  constructor(sign: 1 | -1, value: Node);
  readonly sign: 1 | -1;
  readonly value: Node;
}

/** Terms added and subtracted, in the order written. */
export declare class DiceSum extends Value {
  constructor(terms: Iterable<Term>);
  readonly terms: readonly Term[];
  /** Every pool of the expression, in the order written (depth first). */
  readonly pools: Pool[];
  /** The notation, reading back as an equal sum: `4d6kh3+2`, `3d6 >= 10`. */
  toString(): string;
}

/** A node as a tree holds it: a whole fraction as a number. */
export declare function nodeOf(value: Node): Node;
