/** Dice nodes' odds: the exact distribution of a dice expression's tree above its pools, and its steps. */

import type { Num } from "./dice_terms.js";
import type { Node } from "./dice_tree.js";
import type { DiceSum, Pool } from "./dice_terms.js";
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

/** What is known of a node's chances before they are worked out. */
export declare class Extent {
  constructor(size: bigint, denom: bigint, lo?: bigint | null, hi?: bigint | null);
  readonly size: bigint;
  readonly denom: bigint;
  readonly lo: bigint | null;
  readonly hi: bigint | null;
  static of(shape: { size: bigint; denom: bigint; lo: bigint; hi: bigint }): Extent;
}

/** The chances of `node`'s value (`leaf`: a pool's weights). */
export declare function nodeValues(node: Node, leaf: (pool: Pool) => Weights, dice: DiceSum): Values;
/** The extent of `node`'s chances and the steps `nodeValues` takes (`leaf`: a pool's shape and steps). */
export declare function nodeExtent(
  node: Node,
  leaf: (pool: Pool) => [{ size: bigint; denom: bigint; lo: bigint; hi: bigint }, bigint],
): [Extent, bigint];
