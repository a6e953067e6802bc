/** Dice keep after explode: the exact odds of a pool that keeps or drops among all its dice (their steps: ./dice_odds.js). */

import type { Keep } from "./dice_terms.js";

/** The score of the dice `keep` `keepCount` leaves of `count` chains alike, as score -> weight. */
export declare function keepChains(
  outcomes: readonly (readonly [readonly number[], bigint])[],
  count: number,
  keep: Keep,
  keepCount: number,
  score: (value: number) => number,
): Map<number, bigint>;
