/**
 * Dice odds: the exact distribution of a `DiceSum`, by convolution and dynamic
 * programming (the JavaScript twin of the Python runtime's dice_odds.py; the
 * same answers, chance for chance).
 *
 * No roll is enumerated. One die's chances come from its faces, rerolls and
 * explosion; a pool that keeps all its dice is their convolution; a pool that
 * keeps its highest or lowest dice is a dynamic programme over the die's
 * outcomes in order, as icepool does; a pool that counts is the same over
 * whether each die meets the target; a sum convolves its terms. Weights are
 * bigints, chances exact `{numerator, denominator}` fractions.
 *
 * An exploding die is followed to `depth` more dice: a die that would roll
 * more is cut off there. Where a cut die counts in the value, the value is
 * unknown: its chance is the `tail`; the chances of the values known sum to
 * `1 - tail`. A pool that counts, where every face that explodes meets the
 * target, lists only the counts a cut die could not reach (each below
 * `depth + 1`), each with its whole chance: the larger counts are in the tail.
 */

import { Distribution } from "./dice.js";
import { DiceSum, Pool, Value } from "./dice_terms.js";
import { safe } from "./dice_rolls.js";
import { RuleInputError } from "./errors.js";
import { MAX_ENTRIES, addFractions, countSums, fraction, grouped, mulFractions, shown } from "./_support.js";

/** How many more dice an explosion is followed to, unless told. */
export const DEPTH = 10;
/** The most dice deep an explosion is followed to (a limit of the runtime). */
export const MAX_DEPTH = 100;
/** The most steps (about: outcomes x dice x dice kept x sums) one answer takes. */
export const MAX_WORK = 30 * MAX_ENTRIES;

/** The exact chance of each value (a Map in ascending order of value), and the
 * `tail`: the chance that an explosion cut off at the depth leaves the value
 * unknown. */
export class Odds extends Value {
  static FIELDS = Object.freeze([["chances", "chances"], ["tail", "tail"]]);

  constructor(chances, tail) {
    super();
    this.chances = new Distribution([...chances].sort((a, b) => a[0] - b[0]));
    this.tail = tail;
    Object.freeze(this);
  }

  /** The smallest value known. */
  get min() {
    return this.chances.keys().next().value;
  }

  /** The largest value known. */
  get max() {
    return [...this.chances.keys()].at(-1);
  }

  /** The exact mean, or null when there is a tail. */
  get mean() {
    if (this.tail.numerator !== 0n) return null;
    let found = fraction(0n);
    for (const [v, p] of this.chances) found = addFractions(found, mulFractions(fraction(BigInt(v)), p));
    return found;
  }

  /** The exact variance, or null when there is a tail. */
  get variance() {
    const mean = this.mean;
    if (mean === null) return null;
    let found = fraction(0n);
    for (const [v, p] of this.chances) {
      const d = fraction(BigInt(v) * mean.denominator - mean.numerator, mean.denominator);
      found = addFractions(found, mulFractions(mulFractions(d, d), p));
    }
    return found;
  }
}

/** Chances as whole (bigint) weights over `denom`; `top`: the weight of the tail. */
export class Weights {
  constructor(weights, top, denom) {
    this.weights = new Map();
    for (const [v, w] of weights) if (w) this.weights.set(v, w);
    this.top = top;
    this.denom = denom;
  }

  /** The sum of two independent parts; with `below`, the values from `below`
   * on are left unknown (their weight joins the tail). */
  plus(other, budget, below = null) {
    budget.spend(this.weights.size * other.weights.size);
    const found = new Map();
    for (const [a, wa] of this.weights) {
      for (const [b, wb] of other.weights) {
        const v = safe(a + b, "a value of the odds");
        if (below === null || v < below) found.set(v, (found.get(v) ?? 0n) + wa * wb);
      }
    }
    const denom = this.denom * other.denom;
    return new Weights(found, denom - sumOf(found.values()), denom);
  }

  /** The values under `limit` only, the rest left unknown (in the tail). */
  below(limit) {
    const found = new Map([...this.weights].filter(([v]) => v < limit));
    return new Weights(found, this.denom - sumOf(found.values()), this.denom);
  }

  mapped(how) {
    const found = new Map();
    for (const [v, w] of this.weights) {
      const to = safe(how(v), "a value of the odds");
      found.set(to, (found.get(to) ?? 0n) + w);
    }
    return new Weights(found, this.top, this.denom);
  }
}

class Budget {
  constructor() {
    this.left = MAX_WORK;
  }

  spend(steps) {
    this.left -= steps;
    if (this.left < 0) {
      throw new RuleInputError(
        `the exact odds take more than ${grouped(MAX_WORK)} steps to work out ` +
          "(a limit of the runtime, not of the rules): use fewer dice, sides or explosion depth",
      );
    }
  }
}

/**
 * The exact odds of `dice`, explosions followed `depth` dice deep.
 * Throws RuleInputError for a `depth` outside 0..MAX_DEPTH and for odds whose
 * working out would pass MAX_WORK steps or MAX_ENTRIES values.
 */
export function odds(dice, depth = DEPTH) {
  if (!(dice instanceof DiceSum)) {
    throw new RuleInputError(`dice must be a DiceSum, not ${shown(dice)}`);
  }
  if (!Number.isInteger(depth) || !(depth >= 0 && depth <= MAX_DEPTH)) {
    throw new RuleInputError(`depth must be an int in 0..${MAX_DEPTH}, not ${shown(depth)}`);
  }
  const budget = new Budget();
  let total = new Weights([[0, 1n]], 0n, 1n);
  for (const term of dice.terms) {
    let part;
    if (term.value instanceof Pool) {
      part = poolDist(term.value, depth, budget);
      if (term.sign < 0) part = part.mapped((v) => -v);
    } else {
      part = new Weights([[term.sign * term.value, 1n]], 0n, 1n);
    }
    total = total.plus(part, budget);
    if (total.weights.size > MAX_ENTRIES) {
      throw new RuleInputError(
        `${dice} has more than ${grouped(MAX_ENTRIES)} values ` +
          "(a limit of the runtime, not of the rules)",
      );
    }
  }
  const chances = new Map();
  for (const [v, w] of total.weights) chances.set(v, fraction(w, total.denom));
  return new Odds(chances, fraction(total.top, total.denom));
}

/** One die's final face, rerolls done. */
export function faceWeights(pool) {
  const faces = pool.faces;
  const reroll = pool.reroll;
  if (reroll === null) return new Weights(faces.map((f) => [f, 1n]), 0n, BigInt(faces.length));
  const again = faces.filter((f) => reroll.meets(f));
  if (!pool.rerollOnce) {
    const kept = faces.filter((f) => !reroll.meets(f));
    return new Weights(kept.map((f) => [f, 1n]), 0n, BigInt(kept.length));
  }
  const n = BigInt(faces.length);
  const a = BigInt(again.length);
  return new Weights(faces.map((f) => [f, a + (again.includes(f) ? 0n : n)]), 0n, n * n);
}

function sumOf(weights) {
  let total = 0n;
  for (const w of weights) total += w;
  return total;
}

function add(found, value, weight) {
  found.set(value, (found.get(value) ?? 0n) + weight);
}

/** One die of `pool` with the dice its explosion adds, each chain of faces
 * folded with `add` from `empty` (its sum, its count, or the faces
 * themselves), outcomes told apart by `key`: the outcomes (a Map of
 * key -> [outcome, weight]), the weight of the chains cut off at `depth` more
 * dice, and the denominator. */
export function chains(pool, depth, empty, add, key = (value) => value) {
  const face = faceWeights(pool);
  const weights = face.weights;
  const total = face.denom;
  const put = (into, value, weight) => {
    const k = key(value);
    const had = into.get(k);
    if (had === undefined) into.set(k, [value, weight]);
    else had[1] += weight;
  };
  const found = new Map();
  const boom = [...weights].filter(([f]) => pool.explodes(f));
  if (pool.explode === null || !boom.length) {
    for (const [f, w] of weights) put(found, add(empty, f), w);
    return [found, 0n, total];
  }
  const stop = [...weights].filter(([f]) => !pool.explodes(f));
  if (pool.explode === "!o") {
    // one more die at most, whatever it shows
    for (const [f, w] of stop) put(found, add(empty, f), w * total);
    for (const [e, we] of boom) for (const [g, w] of weights) put(found, add(add(empty, e), g), we * w);
    return [found, 0n, total * total];
  }
  const d = BigInt(depth);
  let level = new Map(); // the chains of k exploded faces so far, each weighed
  put(level, empty, 1n);
  for (let k = 0; k <= depth; k++) {
    const scale = total ** (d - BigInt(k));
    for (const [chain, ws] of level.values()) {
      for (const [f, w] of stop) put(found, add(chain, f), ws * w * scale);
    }
    const after = new Map();
    for (const [chain, ws] of level.values()) {
      for (const [e, we] of boom) put(after, add(chain, e), ws * we);
    }
    level = after;
  }
  return [found, sumOf(boom.map(([, w]) => w)) ** (d + 1n), total ** (d + 1n)];
}

/** One die with its explosion: the sum of `score` over its dice (each face
 * scored on its own: its face for a sum, 1 or 0 for a count), followed `depth`
 * dice deep (`top`: the weight of the chains cut off there). */
export function chainWeights(pool, depth, score) {
  const [found, cut, denom] = chains(pool, depth, 0, (sofar, f) =>
    safe(sofar + score(f), "a value of the odds"),
  );
  return new Weights(found.values(), cut, denom);
}

function poolDist(pool, depth, budget) {
  const times = (v) => v * pool.multiplier;
  let die;
  if (pool.target === null || pool.explode === "!" || pool.explode === "!o") {
    // each die scored on its own: its face, or whether it meets the target
    die = chainWeights(pool, depth, scorer(pool, true));
    if (pool.keep === null) {
      const below = exactBelow(pool, depth);
      if (below !== null) die = die.below(below);
      return power(die, pool.count, budget, below).mapped(times);
    }
  } else {
    // a die's value is its chain's sum; a count scores it after
    die = chainWeights(pool, depth, scorer(pool, false));
  }
  const score = scorer(pool, true);
  if (pool.keep === null) return power(die.mapped(score), pool.count, budget).mapped(times);
  const highest = pool.keep === "kh" || pool.keep === "dl";
  return keepDist(die, pool.count, pool.kept, highest, score, budget).mapped(times);
}

/** For a pool that counts with `!`: the least count a die cut off at the
 * depth has (every face that explodes meets the target), so that each count
 * below it is known whole; else null. */
function exactBelow(pool, depth) {
  const target = pool.target;
  if (target === null || pool.explode !== "!") return null;
  const faces = pool.finalFaces().filter((f) => pool.explodes(f));
  if (!faces.length || !faces.every((f) => target.meets(f))) return null;
  return depth + 1;
}

function scorer(pool, perFace) {
  const target = pool.target;
  if (target === null || !perFace) return (v) => v;
  return (v) => (target.meets(v) ? 1 : 0);
}

/** `count` dice added up (by squaring; a plain die by a sliding window); with
 * `below`, the sums from `below` on left unknown (no die is negative). */
function power(die, count, budget, below = null) {
  if (plain(die)) return windowed(die, count, budget);
  let result = new Weights([[0, 1n]], 0n, 1n);
  let square = die;
  let left = count;
  while (left) {
    if (left & 1) result = result.plus(square, budget, below);
    left >>= 1;
    if (left) square = square.plus(square, budget, below);
  }
  return result;
}

/** Whether `die` is equally likely to show each of a run of whole numbers. */
function plain(die) {
  const weights = new Set(die.weights.values());
  const [low, high] = span(die.weights.keys());
  return !die.top && weights.size === 1 && die.weights.size === high - low + 1;
}

/** The lowest and highest of `values` (no spread: a die may have 100,000 faces). */
function span(values) {
  let low = Infinity;
  let high = -Infinity;
  for (const v of values) {
    if (v < low) low = v;
    if (v > high) high = v;
  }
  return [low, high];
}

/** `count` plain dice added up, by the runtime's sliding window. */
function windowed(die, count, budget) {
  const [low] = span(die.weights.keys());
  const sides = die.weights.size;
  // the window's work: every die adds its sides to the sums so far
  budget.spend(count * (sides + 1) + ((sides - 1) * count * (count - 1)) / 2);
  const ways = countSums(count, sides);
  const weight = die.weights.values().next().value ** BigInt(count);
  const found = ways.map((n, i) => [safe(count * low + i, "a value of the odds"), n * weight]);
  return new Weights(found, 0n, die.denom ** BigInt(count));
}

/**
 * The sum of `score` over the `keep` highest (or lowest) of `count` dice: the
 * outcomes taken from the best down (the cut-off ones first when keeping the
 * highest, last when keeping the lowest); a state is how many dice show the
 * outcomes taken so far and the score of those kept.
 */
function keepDist(die, count, keep, highest, score, budget) {
  const ranked = [...die.weights].sort((a, b) => (highest ? b[0] - a[0] : a[0] - b[0]));
  let outcomes = ranked;
  if (die.top) outcomes = highest ? [[null, die.top], ...ranked] : [...ranked, [null, die.top]];
  let rest = die.denom;
  let states = new Map([["0,0", [0, 0, 1n]]]);
  const done = new Map();
  let tail = 0n;
  for (const [value, weight] of outcomes) {
    rest -= weight; // the weight of the outcomes still to come
    const powers = [1n];
    for (let t = 1; t <= count; t++) powers.push(powers[t - 1] * weight);
    budget.spend(states.size * (count + 1));
    const after = new Map();
    for (const [placed, sofar, ways] of states.values()) {
      const left = count - placed;
      let choose = 1n; // comb(left, t)
      for (let t = 0; t <= left; t++) {
        if (t) choose = (choose * BigInt(left - t + 1)) / BigInt(t);
        const more = ways * choose * powers[t];
        const kept = Math.min(t, keep - placed);
        if (value === null && kept) {
          tail += more * rest ** BigInt(left - t);
          continue;
        }
        const total = sofar + (value !== null ? kept * score(value) : 0);
        if (placed + t >= keep) {
          add(done, total, more * rest ** BigInt(left - t));
        } else {
          const key = `${placed + t},${total}`;
          const found = after.get(key);
          if (found === undefined) after.set(key, [placed + t, total, more]);
          else found[2] += more;
        }
      }
    }
    states = after;
  }
  return new Weights(done, tail, die.denom ** BigInt(count));
}
