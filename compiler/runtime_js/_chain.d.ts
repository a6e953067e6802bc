/** Odds of a rule that repeats a turn until an ending holds: an absorbing Markov chain solved exactly. */

import type { Dist } from "./odds.js";

/** The count of turns after one more; refuses a run past the runtime's limit. */
export declare function nextTurn(turns: number): number;

/** The chances of `answer(turns, ...state)` where the turns stop, from
 * `start` (or each state a start that rolls gives, with its chance): solved
 * as an absorbing chain, or followed turn by turn up to `maxTurns`, or to
 * `depth` (the runs still going after it the tail). */
export declare function absorbed(
  start: readonly unknown[] | Dist,
  turn: (...state: never[]) => Dist,
  ends: (...state: never[]) => boolean,
  answer: (turns: never, ...state: never[]) => unknown,
  maxTurns: number | null,
  depth?: number | null,
): Dist;
