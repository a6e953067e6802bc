/** Dice keep after explode: the exact odds of a pool that keeps or drops among all its dice, and their steps. */

import type { Keep } from "./dice_terms.js";

/** The score of the dice `keep` `keepCount` leaves of `count` chains alike, as score -> weight. */
export declare function keepChains(
  outcomes: readonly (readonly [readonly number[], bigint])[],
  count: number,
  keep: Keep,
  keepCount: number,
  score: (value: number) => number,
): Map<number, bigint>;
/** The steps `keepChains` takes (no fewer). */
export declare function keepCost(
  chains: bigint,
  length: bigint,
  values: number,
  count: number,
  keep: Keep,
  keepCount: number,
  span: bigint,
  bits: number,
): bigint;
