/** Dice nodes' odds: the exact distribution of a dice expression's tree above its pools, and its steps. */

import type { Num } from "./dice_terms.js";
import type { Node } from "./dice_tree.js";
import type { Pool } from "./dice_terms.js";
import type { Fraction } from "./dice.js";
import type { Weights } from "./dice_odds.js";

/** The key of a value in a map: the number itself, or a fraction's "n/d". */
export declare function keyOf(value: Num): number | string;

/** Chances of exact values as whole weights over `denom`; `top`: the weight of the values left unknown. */
export declare class Values {
  constructor(found: Map<number | string, [Num, bigint]>, top: bigint, denom: bigint);
  readonly found: Map<number | string, [Num, bigint]>;
  readonly top: bigint;
  readonly denom: bigint;
  readonly size: number;
  static point(value: Num): Values;
  static of(weights: Weights): Values;
  mapped(how: (value: Num) => Num): Values;
  with(other: Values, how: (a: Num, b: Num) => Num): Values;
}

/** What is known of a node's chances before they are worked out (as the Python runtime's Span). */
export declare class Span {
  constructor(lo: Fraction | null, hi: Fraction | null, size: bigint, denom: bigint, whole: boolean);
  readonly lo: Fraction | null;
  readonly hi: Fraction | null;
  readonly size: bigint;
  readonly denom: bigint;
  readonly whole: boolean;
  /** `size` or fewer: whole values between lo and hi are no more than the run. */
  most(size: bigint): bigint;
  sized(size?: bigint): Span;
}

/** The chances of `node`'s value (`leaf`: a pool's weights). */
export declare function nodeValues(node: Node, leaf: (pool: Pool) => Weights): Values;
/** The span of `node`'s chances and the steps `nodeValues` takes (`leaf`: a pool's shape and steps). */
export declare function nodeSpan(
  node: Node,
  leaf: (pool: Pool) => [{ size: bigint; denom: bigint; lo: bigint; hi: bigint }, bigint],
): [Span, bigint];
