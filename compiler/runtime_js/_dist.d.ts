/** Distributions of the odds engine: chances as whole weights over a denominator, and answers in order. */

/** A value as a key of a Map (a list by its items). */
export declare function keyOf(value: unknown): unknown;
/** A value as the chances keep it (a list frozen). */
export declare function kept<T>(value: T): T;

/** Weights by value as they are added up (each value once). */
export declare class Tally {
  constructor();
  add(value: unknown, weight: bigint): void;
  [Symbol.iterator](): IterableIterator<[unknown, bigint]>;
}

/** Chances as whole `weights` over `denom`; `cut`: the weight an explosion's depth cut off. */
export declare class Dist {
  constructor(weights: Iterable<readonly [unknown, bigint]>, cut: bigint, denom: bigint);
  readonly weights: ReadonlyMap<unknown, bigint>;
  readonly cut: bigint;
  readonly denom: bigint;
}

/** The chances of item `at` of a distribution over lists. */
export declare function marginal(part: Dist, at: number): Dist;
/** Chances as exact fractions, as whole weights over their common denominator. */
export declare function weighedDist(
  chances: ReadonlyMap<unknown, { numerator: bigint; denominator: bigint }>,
  tail: { numerator: bigint; denominator: bigint },
): Dist;
export declare function lcm(a: bigint, b: bigint): bigint;
/** Answers in order (labels of an enum in its order, lists item by item). */
export declare function compare(
  a: unknown,
  b: unknown,
  labels?: (at: number) => ReadonlyMap<string, number> | null,
  at?: number,
): number;
