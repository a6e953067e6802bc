/**
 * Multiset odds: a pool's dice read through folds, worked out over the
 * multiset of their outcomes (the JavaScript twin of the Python runtime's
 * _multiset.py: the same algorithm step for step, the same work counted).
 *
 * A pool is one or more groups of alike dice (`Group`: the weighted outcomes
 * of one die, from `dieOutcomes`, and how many; a pool that keeps its
 * highest or lowest dice is a group alone). The rest of a rule reads it only
 * through folds: `count`, `sum`, `len`, `tally`, `max`, `min` and `at` (the
 * die at one place when sorted). `multiset` answers the chances of the
 * folds' values: the outcomes taken one at a time, in order, and for each,
 * how many of each group's dice show it (binomial weights); once the folds
 * bound to the order can change no more, the dice still to place only add
 * to the counts and sums, as a power worked out once. Groups read by no
 * place together are worked out each alone and merged.
 */

import { chainCost, chainWeights, chains, faceWeights } from "./dice_odds.js";
import { Dist, keyOf } from "./_dist.js";
import { bitLength, spend, weighed } from "./_support.js";

/** The folds a die adds its share to (the others depend on the order). */
export const ADDITIVE = new Set(["count", "sum", "len", "tally"]);

/** `count` alike dice: each die's `outcomes` (an array of [items, weight]:
 * the items it adds to the list, by weight over `denom`; `cut`: the weight
 * cut off at the depth), of which the `keep` highest (`highest`) or lowest
 * are kept (null: all). */
export class Group {
  constructor(outcomes, cut, denom, count, keep = null, highest = false) {
    this.outcomes = outcomes;
    this.cut = cut;
    this.denom = denom;
    this.count = count;
    this.keep = keep;
    this.highest = highest;
  }
}

/** The weighted outcomes of one die of `pool`: the items (sorted) it adds to
 * the list, one, or with `!` and `!o` the die and the dice its explosion
 * adds; rerolls and compounding done, followed `depth` dice deep. */
export function dieOutcomes(pool, depth) {
  if (pool.explode === null) {
    // its faces (numbers, or a die's symbols)
    spend(chainCost(pool, depth, (v) => v));
    const face = faceWeights(pool);
    return new Dist([...face.weights].map(([v, w]) => [[v], w]), 0n, face.denom);
  }
  if (pool.explode !== "!" && pool.explode !== "!o") {
    spend(chainCost(pool, depth, (v) => v));
    const chain = chainWeights(pool, depth, (v) => v);
    return new Dist([...chain.weights].map(([v, w]) => [[v], w]), chain.top, chain.denom);
  }
  spend(chainCost(pool, depth, null));
  const sorted = (shown, f) => [...shown, f].sort((a, b) => a - b);
  const [found, cut, denom] = chains(pool, depth, [], sorted, keyOf);
  return new Dist(found.values(), cut, denom);
}

/** The dice of `pool` as a group (its keep, if any, kept). */
export function group(pool, depth) {
  const die = dieOutcomes(pool, depth);
  const keep = pool.keep !== null ? pool.kept : null;
  return new Group([...die.weights], die.cut, die.denom, pool.count, keep,
    pool.keep === "kh" || pool.keep === "dl");
}

/** One item of a list whose chances are `part` (a dice total). */
export function element(part) {
  return new Group([...part.weights].map(([v, w]) => [[v], w]), part.cut, part.denom, 1);
}

const IDENTITY = { count: 0, sum: 0, len: 0, tally: 0, max: null, min: null, at: null };

/** The chances of the folds' values (an array, in the folds' order) over the
 * dice of `groups`. A fold is [kind, groups read, a, b]. */
export function multiset(groups, folds) {
  let denom = 1n;
  let known = 1n;
  for (const g of groups) {
    denom *= g.denom ** BigInt(g.count);
    known *= (g.denom - g.cut) ** BigInt(g.count);
  }
  const bits = bitLength(denom);
  if (folds.some((f) => f[0] === "at" && f[1].length > 1)) {
    return new Dist(evaluate(groups, folds, bits).values(), denom - known, denom);
  }
  let found = null;
  groups.forEach((one, g) => {
    const own = [];
    folds.forEach((f, i) => {
      if (f[1].includes(g)) own.push(i);
    });
    const alone = own.map((i) => [folds[i][0], [0], folds[i][2], folds[i][3]]);
    const part = evaluate([one], alone, bits);
    if (found === null && own.length === folds.length) {
      found = part;
      return;
    }
    if (found === null) found = entries([[folds.map((f) => IDENTITY[f[0]]), 1n]]);
    found = merge(found, part, own, own.map((i) => folds[i][0]), bits);
  });
  if (found === null) found = entries([[folds.map((f) => IDENTITY[f[0]]), 1n]]);
  return new Dist(found.values(), denom - known, denom);
}

/** A Map by key of [value, weight] (a value an array), from pairs. */
function entries(pairs) {
  const found = new Map();
  for (const [v, w] of pairs) put(found, v, w);
  return found;
}

function put(into, value, weight) {
  const key = JSON.stringify(value);
  const had = into.get(key);
  if (had === undefined) into.set(key, [value, weight]);
  else had[1] += weight;
}

/** Every weight of `found` times `w`. */
function scaled(found, w) {
  const made = new Map();
  for (const [k, [v, x]] of found) made.set(k, [v, x * w]);
  return made;
}

/** `found` with a group's own folds (`part`, of the folds `at`) merged in. */
function merge(found, part, at, kinds, bits) {
  if (!at.length) {
    const [[, w]] = part.values();
    return scaled(found, w);
  }
  spend(weighed(BigInt(found.size) * BigInt(part.size), bits));
  const after = new Map();
  for (const [va, wa] of found.values()) {
    for (const [vb, wb] of part.values()) {
      const made = [...va];
      at.forEach((i, j) => {
        const a = va[i];
        const b = vb[j];
        const kind = kinds[j];
        if (kind === "max") made[i] = a === null || (b !== null && b > a) ? b : a;
        else if (kind === "min") made[i] = a === null || (b !== null && b < a) ? b : a;
        else if (kind === "at") made[i] = b;
        else made[i] = a + b;
      });
      put(after, made, wa * wb);
    }
  }
  return after;
}

/** The weights of the folds' values over the dice of `groups` together. */
function evaluate(groups, folds, bits) {
  const shape = new Shape(groups, folds, bits);
  if (shape.ordered) return ordered(shape);
  let total = entries([[shape.zero, 1n]]);
  groups.forEach((g, i) => {
    total = convolve(total, shape.power(i, 0, g.count), bits);
  });
  return total; // every fold adds: their values are the shares
}

/** Items (arrays of numbers, or of symbols) in order, item by item. */
function compareItems(a, b) {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (Array.isArray(x)) {
      const order = compareItems(x, y);
      if (order) return order;
      continue;
    }
    return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

class Shape {
  constructor(groups, folds, bits) {
    this.groups = groups;
    this.folds = folds;
    this.bits = bits;
    this.adds = [];
    this.ords = [];
    folds.forEach((f, i) => (ADDITIVE.has(f[0]) ? this.adds : this.ords).push(i));
    this.zero = this.adds.map(() => 0);
    this.keeping = groups.some((g) => g.keep !== null);
    this.ordered = this.ords.length > 0 || this.keeping;
    const kinds = new Set(this.ords.map((i) => folds[i][0]));
    this.descending = this.keeping ? groups[0].highest : kinds.has("max") || !kinds.has("min");
    const steps = [];
    groups.forEach((one, g) => {
      const outcomes = [...one.outcomes].sort((a, b) => compareItems(a[0], b[0]));
      for (const [items, w] of outcomes) steps.push([g, items, w]);
    });
    const head = this.descending
      ? (items) => -Math.max(...items)
      : (items) => Math.min(...items);
    // faces of symbols (only folds that add read them): no highest
    if (steps.every(([, items]) => items.every((x) => typeof x === "number"))) {
      steps.sort((a, b) => head(a[1]) - head(b[1]) || a[0] - b[0] || compareItems(a[1], b[1]));
    }
    this.steps = steps;
    this.vecs = steps.map(([g, items]) => this.share(g, items));
    const count = steps.length;
    this.last = new Map();
    steps.forEach(([g], i) => this.last.set(g, i));
    this.rest = groups.map(() => new Array(count + 1).fill(0n));
    this.high = groups.map(() => new Array(count + 1).fill(null));
    this.low = groups.map(() => new Array(count + 1).fill(null));
    for (let b = count - 1; b >= 0; b--) {
      const [g, items, w] = steps[b];
      for (let h = 0; h < groups.length; h++) {
        this.rest[h][b] = this.rest[h][b + 1];
        this.high[h][b] = this.high[h][b + 1];
        this.low[h][b] = this.low[h][b + 1];
      }
      this.rest[g][b] += w;
      if (this.ords.length) {
        const top = Math.max(...items);
        const bottom = Math.min(...items);
        const high = this.high[g][b];
        const low = this.low[g][b];
        this.high[g][b] = high === null || top > high ? top : high;
        this.low[g][b] = low === null || bottom < low ? bottom : low;
      }
    }
    this.targets = this.ords.map((i) => this.target(folds[i]));
    this.powers = new Map();
  }

  /** A die of group `g` showing `items`: its share of each count and sum. */
  share(g, items) {
    return this.adds.map((i) => {
      const [kind, reads, a, b] = this.folds[i];
      return reads.includes(g) ? score(kind, a, b, items) : 0;
    });
  }

  /** Whether a count or sum reads the dice of group `g`. */
  added(g) {
    return this.adds.some((i) => this.folds[i][1].includes(g));
  }

  /** The place an `at` fold reads, counted in the order the outcomes are
   * taken; -1 where there is no such place. */
  target(fold) {
    const [kind, reads, place] = fold;
    if (kind !== "at") return -1;
    const size = reads.reduce((n, g) => n + keptOf(this.groups[g], this.groups[g].count), 0);
    const at = place < 0 ? place + size : place;
    if (!(at >= 0 && at < size)) return -1;
    return this.descending ? size - 1 - at : at;
  }

  /** The folds' values in their order, from the order's and the sums'. */
  values(ordered, added) {
    const found = new Array(this.folds.length).fill(null);
    this.ords.forEach((i, j) => (found[i] = ordered[j]));
    this.adds.forEach((i, j) => (found[i] = added[j]));
    return found;
  }

  /** The shares of `left` dice of group `g` showing the outcomes from step
   * `b` on. */
  power(g, b, left) {
    const key = `${g},${b},${left}`;
    let found = this.powers.get(key);
    if (found === undefined) {
      const classes = new Map();
      for (let i = b; i < this.steps.length; i++) {
        if (this.steps[i][0] === g) put(classes, this.vecs[i], this.steps[i][2]);
      }
      found = power(classes, left, this.zero, this.bits);
      this.powers.set(key, found);
    }
    return found;
  }
}

/** A die's share of an adding fold. */
function score(kind, a, b, items) {
  if (kind === "count") return items.filter((x) => a <= x && x <= b).length;
  if (kind === "sum") return items.reduce((n, x) => n + x, 0);
  if (kind === "len") return items.length;
  return items.reduce((n, x) => n + (Array.isArray(x) ? x.filter((s) => s === a).length : x === a ? 1 : 0), 0);
}

function keptOf(group, placed) {
  return group.keep === null ? placed : Math.min(placed, group.keep);
}

/** `n choose k`, as a bigint. */
function comb(n, k) {
  let found = 1n;
  for (let i = 0; i < k; i++) found = (found * BigInt(n - i)) / BigInt(i + 1);
  return found;
}

const addAll = (a, b) => a.map((x, i) => x + b[i]);

/** The shares of `n` dice, each showing one of `classes` (a Map of
 * [share, weight]): for each class in turn how many dice show it; with the
 * last, every die left is placed, those not showing it adding nothing. */
function power(classes, n, zero, bits) {
  const zeroKey = JSON.stringify(zero);
  const rest = classes.has(zeroKey) ? classes.get(zeroKey)[1] : 0n;
  const order = [...classes].filter(([k]) => k !== zeroKey).map(([, c]) => c);
  if (!order.length) return entries([[zero, rest ** BigInt(n)]]);
  let states = new Map([[JSON.stringify([0, zero]), [0, zero, 1n]]]);
  order.slice(0, -1).forEach(([vec, w]) => {
    states = place(states, vec, w, n, null, bits);
  });
  const [vec, w] = order[order.length - 1];
  const ended = place(states, vec, w, n, rest, bits);
  const found = new Map();
  for (const [, v, x] of ended.values()) put(found, v, x);
  return found;
}

/** `states` (dice placed, shares, weight) after a class of weight `w` and
 * share `vec`: each k of the dice left showing it. The last class (where
 * `rest` is given) places every die left, `rest` weighing those not showing
 * it. */
function place(states, vec, w, n, rest, bits) {
  let units = 0n;
  for (const [placed] of states.values()) units += BigInt(n - placed + 1);
  spend(weighed(units, bits));
  const after = new Map();
  const steps = [];
  for (let k = 0; k <= n; k++) steps.push(vec.map((v) => k * v));
  const rows = new Map();
  for (const [placed, sofar, ways] of states.values()) {
    const left = n - placed;
    let row = rows.get(left);
    if (row === undefined) {
      row = [];
      for (let k = 0; k <= left; k++) {
        row.push(comb(left, k) * w ** BigInt(k) * (rest === null ? 1n : rest ** BigInt(left - k)));
      }
      rows.set(left, row);
    }
    for (let k = 0; k <= left; k++) {
      const weight = row[k];
      if (!weight) continue;
      const now = rest === null ? placed + k : n;
      const shares = k ? addAll(sofar, steps[k]) : sofar;
      const key = JSON.stringify([now, shares]);
      const had = after.get(key);
      if (had === undefined) after.set(key, [now, shares, ways * weight]);
      else had[2] += ways * weight;
    }
  }
  return after;
}

/** The shares of two independent parts added. */
function convolve(a, b, bits) {
  if (a.size === 1) {
    const [[v, w]] = a.values();
    if (w === 1n && v.every((x) => x === 0)) return b;
  }
  if (b.size === 1) {
    const [[vb, wb]] = b.values();
    if (vb.every((x) => x === 0)) return scaled(a, wb);
  }
  spend(weighed(BigInt(a.size) * BigInt(b.size), bits));
  const found = new Map();
  for (const [va, wa] of a.values()) {
    for (const [vb, wb] of b.values()) put(found, addAll(va, vb), wa * wb);
  }
  return found;
}

/** The outcomes taken in order, a state being how many dice of each group
 * are placed and the folds' values so far; a state whose order-bound folds
 * can change no more is done, the dice still to place added as a power. */
function ordered(shape) {
  const { groups, ords, folds } = shape;
  const reads = ords.map((i) => folds[i][1]);
  const kinds = ords.map((i) => folds[i][0]);
  let states = new Map();
  const first = [groups.map(() => 0), ords.map(() => null), shape.zero];
  states.set(JSON.stringify(first), [first, 1n]);
  const done = new Map();
  shape.steps.forEach(([g, items, w], b) => {
    const n = groups[g].count;
    const keep = groups[g].keep;
    const last = shape.last.get(g) === b;
    let units = 0n;
    for (const [[placed]] of states.values()) units += last ? 1n : BigInt(n - placed[g] + 1);
    spend(weighed(units, shape.bits));
    const top = Math.max(...items);
    const bottom = Math.min(...items);
    const vec = shape.vecs[b];
    const rows = new Map();
    const after = new Map();
    const add = (state, weight) => {
      const key = JSON.stringify(state);
      const had = after.get(key);
      if (had === undefined) after.set(key, [state, weight]);
      else had[1] += weight;
    };
    for (const [state, ways] of states.values()) {
      const [placed, orderedNow, added] = state;
      const left = n - placed[g];
      let row = rows.get(left);
      if (row === undefined) {
        row = [];
        for (let k = 0; k <= left; k++) row.push(comb(left, k) * w ** BigInt(k));
        rows.set(left, row);
      }
      for (let k = last ? left : 0; k <= left; k++) {
        const weight = ways * row[k];
        if (!k) {
          add(state, weight);
          continue;
        }
        const kept = keep === null ? k : Math.max(0, Math.min(k, keep - placed[g]));
        const newPlaced = [...placed];
        newPlaced[g] = placed[g] + k;
        if (!kept) {
          add([newPlaced, orderedNow, added], weight);
          continue;
        }
        const moved = [...orderedNow];
        kinds.forEach((kind, j) => {
          if (!reads[j].includes(g)) return;
          const now = moved[j];
          if (kind === "max") moved[j] = now === null || top > now ? top : now;
          else if (kind === "min") moved[j] = now === null || bottom < now ? bottom : now;
          else if (now === null) {
            const before = reads[j].reduce((x, h) => x + keptOf(groups[h], placed[h]), 0);
            if (before <= shape.targets[j] && shape.targets[j] < before + kept) moved[j] = items[0];
          }
        });
        const more = added.map((a, j) => a + kept * vec[j]);
        add([newPlaced, moved, more], weight);
      }
    }
    states = new Map();
    const final = [];
    for (const [key, [state, ways]] of after) {
      if (isFinal(shape, state, b + 1)) final.push([state, ways]);
      else states.set(key, [state, ways]);
    }
    finish(shape, final, b + 1, done);
  });
  finish(shape, [...states.values()], shape.steps.length, done);
  return done;
}

/** Whether the order-bound folds of `state` can change no more after the
 * first `b` steps. */
function isFinal(shape, state, b) {
  const { groups } = shape;
  const [placed, orderedNow] = state;
  if (shape.keeping) {
    if (placed[0] >= (groups[0].keep ?? 0)) return true;
    if (shape.adds.length) return false;
  }
  for (let j = 0; j < shape.ords.length; j++) {
    const [kind, reads] = shape.folds[shape.ords[j]];
    const value = orderedNow[j];
    for (const g of reads) {
      if (placed[g] >= groups[g].count) continue;
      if (kind === "at") {
        if (value === null && shape.targets[j] >= 0) return false;
      } else if (value === null) {
        return false;
      } else if (kind === "max") {
        const high = shape.high[g][b];
        if (high !== null && high > value) return false;
      } else {
        const low = shape.low[g][b];
        if (low !== null && low < value) return false;
      }
    }
  }
  return true;
}

/** States done after `b` steps: each with the shares of the dice still to
 * place (from the steps after), into `done` by the folds' values. */
function finish(shape, final, b, done) {
  const { groups } = shape;
  const parts = [];
  let units = 0n;
  for (const [state, ways] of final) {
    const [placed] = state;
    let rest = entries([[shape.zero, 1n]]);
    groups.forEach((one, g) => {
      const left = one.count - placed[g];
      if (!left) return;
      const dropped = one.keep !== null && placed[g] >= one.keep;
      const part = dropped || !shape.added(g)
        ? entries([[shape.zero, shape.rest[g][b] ** BigInt(left)]])
        : shape.power(g, b, left);
      rest = convolve(rest, part, shape.bits);
    });
    units += BigInt(rest.size);
    parts.push([state, ways, rest]);
  }
  if (!parts.length) return;
  spend(weighed(units, shape.bits));
  for (const [[, orderedNow, added], ways, rest] of parts) {
    for (const [vec, w] of rest.values()) {
      put(done, shape.values(orderedNow, addAll(added, vec)), ways * w);
    }
  }
}
