/** Multiset odds: a pool's dice read through folds, worked out over the multiset of their outcomes. */
import type { Dist } from "./_dist.js";
import type { Pool } from "./dice_terms.js";

/** The folds a die adds its share to. */
export declare const ADDITIVE: ReadonlySet<string>;

/** A fold: its kind, the groups it reads, and its values. */
export type Fold = readonly [string, readonly number[], unknown, unknown];

/** `count` alike dice: each die's weighted outcomes, of which the `keep` highest or lowest are kept. */
export declare class Group {
  constructor(
    outcomes: ReadonlyArray<readonly [readonly unknown[], bigint]>,
    cut: bigint,
    denom: bigint,
    count: number,
    keep?: number | null,
    highest?: boolean,
  );
  readonly outcomes: ReadonlyArray<readonly [readonly unknown[], bigint]>;
  readonly cut: bigint;
  readonly denom: bigint;
  readonly count: number;
  readonly keep: number | null;
  readonly highest: boolean;
}

/** The weighted outcomes of one die of `pool` (the items it adds to the list). */
export declare function dieOutcomes(pool: Pool, depth: number): Dist;
/** The dice of `pool` as a group. */
export declare function group(pool: Pool, depth: number): Group;
/** One item of a list whose chances are `part`. */
export declare function element(part: Dist): Group;
/** The chances of the folds' values over the dice of `groups`. */
export declare function multiset(groups: readonly Group[], folds: readonly Fold[]): Dist;
