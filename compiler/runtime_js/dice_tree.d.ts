/** Dice tree: the nodes of a dice expression above its pools, and its exact values. */

import type { Fraction } from "./dice.js";
import type { Condition, DiceSum, Keep, Num, Op, Pool } from "./dice_terms.js";
import { Value } from "./dice_terms.js";

/** A node of a dice expression. */
export type Node = Pool | number | Fraction | DiceSum | Binary | Call | Group | Test | Labeled;
export type CallName = "floor" | "ceil" | "round" | "abs" | "max" | "min";

/** The value of the fraction `f`: a number when whole (refused past the safe integers). */
export declare function normal(f: Fraction): Num;
/** a + b, exactly. */
export declare function plus(a: Num, b: Num): Num;
/** -a. */
export declare function negated(a: Num): Num;
/** a * b, exactly. */
export declare function times(a: Num, b: Num): Num;
/** a / b, exactly; RuleInputError "division by zero" when b is 0. */
export declare function divided(a: Num, b: Num): Num;
/** -1, 0 or 1 as a is below, equal to or above b. */
export declare function order(a: Num, b: Num): -1 | 0 | 1;
/** Whether `left op right` holds. */
export declare function holds(op: Op, left: Num, right: Num): boolean;
/** The notation's functions, each of its values (round: half up). */
export declare const FUNCTIONS: { readonly [name in CallName]: (...values: Num[]) => Num };
/** Each function's least and most arguments (null: no most). */
export declare const CALLS: { readonly [name in CallName]: readonly [number, number | null] };

/** `left * right` or `left / right` (exact: a fraction when not whole). */
export declare class Binary extends Value {
  constructor(op: "*" | "/", left: Node, right: Node);
  readonly op: "*" | "/";
  readonly left: Node;
  readonly right: Node;
  toString(): string;
}

/** A function of its arguments' totals: `floor(2d6/2)`, `max(1d6, 1d8)`. */
export declare class Call extends Value {
  constructor(name: CallName, args: Iterable<Node>);
  readonly name: CallName;
  readonly args: readonly Node[];
  toString(): string;
}

export interface GroupOptions {
  keep?: Keep | null;
  keepCount?: number;
  target?: Condition | null;
  failure?: Condition | null;
}

/** Expressions rolled together (`{1d20, 1d20}kh1`): summed, kept or dropped by totals, or counted. */
export declare class Group extends Value {
  constructor(items: Iterable<Node>, options?: GroupOptions);
  readonly items: readonly Node[];
  readonly keep: Keep | null;
  readonly keepCount: number;
  readonly target: Condition | null;
  readonly failure: Condition | null;
  /** How many items the group keeps. */
  readonly kept: number;
  /** Why the group cannot be rolled, or null. */
  problem(): string | null;
  toString(): string;
}

/** 1 when `left op right` holds of the two totals, else 0 (`3d6 >= 10`). */
export declare class Test extends Value {
  constructor(op: Op, left: Node, right: Node);
  readonly op: Op;
  readonly left: Node;
  readonly right: Node;
  /** Whether the comparison holds of these totals. */
  holds(left: Num, right: Num): boolean;
  toString(): string;
}

/** A node shown with a label (`1d20+5[STR]`): its value is the node's. */
export declare class Labeled extends Value {
  constructor(node: Node, label: string);
  readonly node: Node;
  readonly label: string;
  toString(): string;
}
