/** Dice unique: the exact odds of a pool whose dice show different faces, and their steps. */

/** The score of the `keep` best of `count` different faces, as [score -> weight, denominator]. */
export declare function uniqueWeights(
  faces: readonly (readonly [number, bigint])[],
  count: number,
  keep: number,
  highest: boolean,
  score: (face: number) => number,
): [Map<number, bigint>, bigint];
/** The steps `uniqueWeights` takes for these faces (no fewer). */
export declare function uniqueCost(
  faces: readonly (readonly [number, bigint])[],
  count: number,
  keep: number,
  span: bigint,
): bigint;
