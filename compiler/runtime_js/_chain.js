/**
 * Odds of a rule that repeats a turn until an ending holds: an absorbing
 * Markov chain solved exactly (the JavaScript twin of the Python runtime's
 * _chain.py; the same answers, chance for chance).
 *
 * A state is an array of the values the rule carries from turn to turn
 * (those its ending and its answer read). `turn(...state)` gives the chances
 * of the next state (an odds.js `Dist`); a state where `ends(...state)` holds
 * takes no turn. With no bound on the turns, the chance of ending in each
 * ending state comes from the expected visits `v` of the states that take
 * turns, solving `v (I - Q) = e_start` over exact fractions (bigints) by
 * Gaussian elimination on sparse rows. With `maxTurns`, the chances are
 * followed turn by turn up to it, and the answer may read the count of turns;
 * with `depth` (no bound on the turns) as far, the runs still going after it
 * the tail.
 * No sequence of rolls is enumerated. The weight an explosion's depth cut off
 * is followed on its own: it is the answer's tail.
 *
 * `nextTurn` counts a run's turns, refusing one past the runtime's limit.
 */

import { RuleInputError } from "./errors.js";
import { Dist } from "./odds.js";
import { MAX_ENTRIES, gcd, spend, tooMany } from "./_support.js";

/** The count of turns after one more; past MAX_ENTRIES turns a run that has
 * not ended is refused (a limit of the runtime, not of the rules). */
export function nextTurn(turns) {
  if (turns >= MAX_ENTRIES) throw tooMany("turns");
  return turns + 1;
}

// Exact fractions as [numerator, denominator] bigints in lowest terms.
const ZERO = [0n, 1n];
const ONE = [1n, 1n];

function norm(n, d) {
  if (d < 0n) [n, d] = [-n, -d];
  const g = gcd(n, d) || 1n;
  return [n / g, d / g];
}
const add = (a, b) => norm(a[0] * b[1] + b[0] * a[1], a[1] * b[1]);
const sub = (a, b) => norm(a[0] * b[1] - b[0] * a[1], a[1] * b[1]);
const mul = (a, b) => norm(a[0] * b[0], a[1] * b[1]);
const div = (a, b) => norm(a[0] * b[1], a[1] * b[0]);
const isZero = (a) => a[0] === 0n;

/** A state's key (its values are numbers, flags, labels or null). */
const keyOf = (state) => JSON.stringify(state);

/** The chances of `answer(turns, ...state)` where the turns stop, from
 * `start`, or from each state with its chance where the start rolls (a
 * `Dist`; its `cut` joins the tail); `turns` is null without `maxTurns` or
 * `depth`: the answer then does not read it. */
export function absorbed(start, turn, ends, answer, maxTurns, depth = null) {
  const [starts, lost] = startsOf(start);
  if (depth !== null) return forward(starts, lost, turn, ends, answer, depth, true);
  if (maxTurns !== null) return forward(starts, lost, turn, ends, answer, maxTurns);
  const order = [];
  const index = new Map();
  const ending = new Map();
  const steps = [];
  const todo = [...starts.values()].map(([state]) => state);
  while (todo.length) {
    const state = todo.pop();
    const key = keyOf(state);
    if (index.has(key) || ending.has(key)) continue;
    if (ends(...state)) {
      ending.set(key, state);
      continue;
    }
    if (order.length >= MAX_ENTRIES) throw tooMany("states");
    index.set(key, order.length);
    order.push(state);
    const after = turn(...state);
    const moves = [...after.weights].map(([t, w]) => [t, keyOf(t), norm(w, after.denom)]);
    steps.push([moves, norm(after.cut, after.denom)]);
    for (const [t, k] of moves) if (!index.has(k) && !ending.has(k)) todo.push(t);
  }
  const found = new Tally();
  for (const [key, [state, p]] of starts) {
    if (ending.has(key)) found.add(answer(null, ...state), p); // it ends before any turn
  }
  if (!order.length) return toDist(found.entries(), lost);
  const rows = order.map((_, j) => new Map([[j, ONE]]));
  steps.forEach(([moves], i) => {
    for (const [, k, p] of moves) {
      const j = index.get(k);
      if (j !== undefined) rows[j].set(i, sub(rows[j].get(i) ?? ZERO, p));
    }
  });
  const visits = solve(rows, order.map((state) => starts.get(keyOf(state))?.[1] ?? ZERO));
  let cut = lost;
  steps.forEach(([moves, dropped], i) => {
    if (isZero(visits[i])) return;
    cut = add(cut, mul(visits[i], dropped));
    for (const [t, k, p] of moves) {
      if (ending.has(k)) found.add(answer(null, ...t), mul(visits[i], p));
    }
  });
  return toDist(found.entries(), cut);
}

/** The states the turns start from (a Map: key -> [state, chance]), and the
 * chance an explosion's depth cut off the start. */
function startsOf(start) {
  if (!(start instanceof Dist)) return [new Map([[keyOf(start), [start, ONE]]]), ZERO];
  const starts = new Map();
  for (const [state, w] of start.weights) starts.set(keyOf(state), [state, norm(w, start.denom)]);
  return [starts, norm(start.cut, start.denom)];
}

/** The chances followed turn by turn, up to `maxTurns` (with `tail`, the runs
 * that have not ended by then are cut off: the tail). */
function forward(starts, lost, turn, ends, answer, maxTurns, tail = false) {
  let now = new Map(starts);
  const found = new Tally();
  let cut = lost;
  const turns = new Map();
  for (let taken = 0; taken <= maxTurns; taken++) {
    const after = new Map();
    for (const [key, [state, p]] of now) {
      if (tail && taken === maxTurns && !ends(...state)) {
        cut = add(cut, p);
        continue;
      }
      if (taken === maxTurns || ends(...state)) {
        found.add(answer(taken, ...state), p);
        continue;
      }
      if (!turns.has(key)) {
        if (turns.size >= MAX_ENTRIES) throw tooMany("states");
        turns.set(key, turn(...state));
      }
      const step = turns.get(key);
      cut = add(cut, mul(p, norm(step.cut, step.denom)));
      for (const [t, w] of step.weights) {
        const k = keyOf(t);
        const had = after.get(k);
        const q = mul(p, norm(w, step.denom));
        after.set(k, had === undefined ? [t, q] : [t, add(had[1], q)]);
      }
    }
    spend(after.size);
    now = after;
    if (!now.size) break;
  }
  return toDist(found.entries(), cut);
}

/** The solution of `rows` (sparse: column -> coefficient) times x = `given`
 * (each state's chance to start), by Gaussian elimination in the order the
 * states were found (no pivoting: an absorbing chain's matrix is an M-matrix). */
function solve(rows, given) {
  const n = rows.length;
  const rhs = [...given];
  const below = rows.map(() => new Set());
  rows.forEach((row, j) => {
    for (const k of row.keys()) if (k < j) below[k].add(j);
  });
  for (let k = 0; k < n; k++) {
    const pivot = rows[k].get(k) ?? ZERO;
    if (isZero(pivot)) throw new RuleInputError("the turns may never end: no chance of the ending");
    for (const j of [...below[k]].sort((a, b) => a - b)) {
      const had = rows[j].get(k) ?? ZERO;
      rows[j].delete(k);
      if (isZero(had)) continue;
      const factor = div(had, pivot);
      spend(rows[k].size);
      for (const [c, v] of rows[k]) {
        if (c === k) continue;
        const value = sub(rows[j].get(c) ?? ZERO, mul(factor, v));
        if (!isZero(value)) {
          rows[j].set(c, value);
          if (k < c && c < j) below[c].add(j);
        } else {
          rows[j].delete(c);
        }
      }
      rhs[j] = sub(rhs[j], mul(factor, rhs[k]));
    }
  }
  const x = new Array(n).fill(ZERO);
  for (let k = n - 1; k >= 0; k--) {
    let total = rhs[k];
    for (const [c, v] of rows[k]) if (c > k) total = sub(total, mul(v, x[c]));
    x[k] = div(total, rows[k].get(k));
  }
  return x;
}

/** Chances by answer as they are added up (answers are numbers, flags, labels). */
class Tally {
  constructor() {
    this.found = new Map();
  }

  add(value, p) {
    const key = typeof value === "string" ? "s" + value : value;
    const had = this.found.get(key);
    this.found.set(key, had === undefined ? [value, p] : [value, add(had[1], p)]);
  }

  entries() {
    return [...this.found.values()];
  }
}

/** Chances as fractions, as a `Dist` over their common denominator. */
function toDist(found, cut) {
  let denom = cut[1];
  for (const [, p] of found) denom = (denom / gcd(denom, p[1])) * p[1];
  const weights = found.map(([v, p]) => [v, p[0] * (denom / p[1])]);
  return new Dist(weights, cut[0] * (denom / cut[1]), denom);
}
