/** Dice unique: the exact odds of a pool whose dice show different faces (their steps: ./dice_odds.js). */

/** The score of the `keep` best of `count` different faces, as [score -> weight, denominator]. */
export declare function uniqueWeights(
  faces: readonly (readonly [number, bigint])[],
  count: number,
  keep: number,
  highest: boolean,
  score: (face: number) => number,
): [Map<number, bigint>, bigint];
