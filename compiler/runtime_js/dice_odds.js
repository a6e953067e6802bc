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
 * `1 - tail`. The cut is per die: each value listed is its chance with no
 * die cut (`countedOdds` lists a lone counting pool as the rules' success
 * pools do).
 */

import * as spec from "./_dice_spec.js";
import { Distribution } from "./dice.js";
import { DiceSum, Pool, Term, Value } from "./dice_terms.js";
import { nodeSpan, nodeValues } from "./_dice_nodes.js";
import { uniqueWeights } from "./_dice_unique.js";
import { keepChains } from "./_dice_keep.js";
import { order } from "./dice_tree.js";
import { safe } from "./dice_rolls.js";
import { RuleInputError } from "./errors.js";
import {
  MAX_ENTRIES,
  MAX_WORK,
  addFractions,
  bitLength,
  countSums,
  fraction,
  grouped,
  mulFractions,
  shown,
  spend,
  weighed,
} from "./_support.js";

/** How many more dice an explosion is followed to, unless told. */
export const DEPTH = spec.DEPTH;
/** The most dice deep an explosion is followed to (a limit of the runtime). */
export const MAX_DEPTH = spec.MAX_DEPTH;
export { MAX_WORK };

const HINT = ": use fewer dice, sides or explosion depth";

/** The exact chance of each value (a Map in ascending order of value), and the
 * `tail`: the chance that an explosion cut off at the depth leaves the value
 * unknown. */
export class Odds extends Value {
  static FIELDS = Object.freeze([["chances", "chances"], ["tail", "tail"]]);

  constructor(chances, tail) {
    super();
    this.chances = new Distribution([...chances].sort((a, b) => order(a[0], b[0])));
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
    for (const [v, p] of this.chances) found = addFractions(found, mulFractions(exactly(v), p));
    return found;
  }

  /** The exact variance, or null when there is a tail. */
  get variance() {
    const mean = this.mean;
    if (mean === null) return null;
    let found = fraction(0n);
    for (const [v, p] of this.chances) {
      const x = exactly(v);
      const d = fraction(x.numerator * mean.denominator - mean.numerator * x.denominator, x.denominator * mean.denominator);
      found = addFractions(found, mulFractions(mulFractions(d, d), p));
    }
    return found;
  }
}

/** A value as a fraction (a number when whole, else a fraction already). */
function exactly(value) {
  return typeof value === "number" ? fraction(BigInt(value)) : value;
}

/** Whether a term of a sum is more than a pool or a whole number (a node of
 * the tree above the pools, or a fraction). */
function branches(term) {
  return !(term.value instanceof Pool) && typeof term.value !== "number";
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
  plus(other, below = null) {
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

/**
 * The exact odds of `dice`, explosions followed `depth` dice deep.
 * Throws RuleInputError for a `depth` outside 0..MAX_DEPTH, for odds whose working
 * out would pass MAX_WORK steps (`oddsWork`, worked out before any of it) and
 * for odds of more than MAX_ENTRIES values.
 */
export function odds(dice, depth = DEPTH) {
  const work = oddsWork(dice, depth);
  if (work > BigInt(MAX_WORK)) throw new RuleInputError(budget(work));
  spend(work, HINT);
  if (dice.terms.some(branches)) {
    const found = nodeValues(dice, (pool) => poolDist(pool, depth));
    const chances = new Map();
    for (const [v, w] of found.found.values()) chances.set(v, fraction(w, found.denom));
    return new Odds(chances, fraction(found.top, found.denom));
  }
  let total = new Weights([[0, 1n]], 0n, 1n);
  for (const term of dice.terms) {
    let part;
    if (term.value instanceof Pool) {
      part = poolDist(term.value, depth);
      if (term.sign < 0) part = part.mapped((v) => -v);
    } else {
      part = new Weights([[term.sign * term.value, 1n]], 0n, 1n);
    }
    total = total.plus(part);
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

/** One die's final face, rerolls done: the one function of a die's faces
 * every odds engine reads (a face a die of the rules' own lists more than once
 * weighs as many; equal faces of symbols are one array: see dice_terms.js). */
export function faceWeights(pool) {
  const shown = new Map(); // how many of the faces show each
  const faces = pool.shownFaces; // minimum and maximum applied
  for (const f of faces) shown.set(f, (shown.get(f) ?? 0n) + 1n);
  const n = BigInt(faces.length);
  const reroll = pool.reroll;
  if (reroll === null) return new Weights(shown, 0n, n);
  let again = 0n;
  for (const [f, m] of shown) if (reroll.meets(f)) again += m;
  if (!pool.rerollOnce) {
    const kept = [...shown].filter(([f]) => !reroll.meets(f));
    return new Weights(kept, 0n, n - again);
  }
  const chances = [...shown].map(([f, m]) => [f, m * again + (reroll.meets(f) ? 0n : m * n)]);
  return new Weights(chances, 0n, n * n);
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
    const less = k && pool.explode === "!p" ? 1 : 0; // a die `!p` adds counts its face less 1
    for (const [chain, ws] of level.values()) {
      for (const [f, w] of stop) put(found, add(chain, f - less), ws * w * scale);
    }
    const after = new Map();
    for (const [chain, ws] of level.values()) {
      for (const [e, we] of boom) put(after, add(chain, e - less), ws * we);
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

function poolDist(pool, depth) {
  const times = (v) => v * pool.multiplier;
  const plain = pool.explode === null; // an exploding die is never added up as plain
  if (pool.unique) {
    const [found, denom] = uniqueWeights([...faceWeights(pool).weights], pool.count, pool.kept, ranksHighest(pool), scorer(pool, true));
    return new Weights(found, 0n, denom).mapped(times);
  }
  if (pool.keep !== null && apart(pool)) {
    // kept among all the dice, those the explosion adds too: chain by chain
    const [found, , denom] = chains(pool, depth, [], (sofar, f) => [...sofar, f], (v) => v.join(","));
    const kept = keepChains([...found.values()], pool.count, pool.keep, pool.keepCount, scorer(pool, true));
    const all = denom ** BigInt(pool.count);
    return new Weights(kept, all - sumOf(kept.values()), all).mapped(times);
  }
  let die;
  if (pool.target === null || apart(pool)) {
    // each die scored on its own: its face, or whether it meets the target
    die = chainWeights(pool, depth, scorer(pool, true));
    if (pool.keep === null) return power(die, pool.count, plain).mapped(times);
  } else {
    // a die's value is its chain's sum; a count scores it after
    die = chainWeights(pool, depth, scorer(pool, false));
  }
  const score = scorer(pool, true);
  if (pool.keep === null) return power(die.mapped(score), pool.count, plain).mapped(times);
  const highest = pool.keep === "kh" || pool.keep === "dl";
  return keepDist(die, pool.count, pool.kept, highest, score).mapped(times);
}

// -- what the work costs, worked out before it (as the Python runtime's) ----------

/** What is known of a part's chances before they are worked out: its lowest
 * and highest values, at most how many values it has, the denominator of its
 * weights (bigints each), and whether it is a plain die. */
class Shape {
  constructor(lo, hi, size, denom, plain = false) {
    this.lo = lo;
    this.hi = hi;
    this.size = size;
    this.denom = denom;
    this.plain = plain;
  }
}

const least = (a, b) => (a < b ? a : b);
const most = (a, b) => (a > b ? a : b);

/** The shape of chances worked out already. */
function shapeOf(weights) {
  const values = [...weights.weights.keys()];
  if (!values.length) return new Shape(0n, 0n, 0n, weights.denom);
  const [low, high] = span(values);
  const plain =
    !weights.top && new Set(weights.weights.values()).size === 1 && values.length === high - low + 1;
  return new Shape(BigInt(low), BigInt(high), BigInt(values.length), weights.denom, plain);
}

/** The shape of the sum of two independent parts (`Weights.plus`). */
function plusShape(a, b, below = null) {
  const lo = a.lo + b.lo;
  const hi = below === null ? a.hi + b.hi : least(a.hi + b.hi, BigInt(below) - 1n);
  return new Shape(lo, hi, most(least(a.size * b.size, hi - lo + 1n), 0n), a.denom * b.denom);
}

/** The steps of `Weights.plus` of parts of these shapes. */
function plusCost(a, b) {
  return weighed(a.size * b.size, bitLength(most(a.denom, b.denom)));
}

function comb(n, k) {
  let found = 1n;
  for (let i = 1; i <= k; i++) found = (found * BigInt(n - k + i)) / BigInt(i);
  return found;
}

/** At most how many chains of k exploded faces `chains` holds, for each k from
 * 0 to `depth` (told apart by the sum of `score`, or with null by the faces). */
export function chainLevels(pool, depth, score) {
  const boom = [...faceWeights(pool).weights.keys()].filter((f) => pool.explodes(f));
  let width = 0n;
  if (score !== null && boom.length) {
    const less = pool.explode === "!p" ? boom.map((f) => f - 1) : []; // (a die `!p` adds)
    const [low, high] = span([...boom, ...less].map(score));
    width = BigInt(high - low);
  }
  const levels = [1n];
  for (let k = 1; k <= depth; k++) {
    const multisets = comb(boom.length + k - 1, k) * (pool.explode === "!p" ? BigInt(boom.length) : 1n);
    levels.push(score === null ? multisets : least(multisets, BigInt(k) * width + 1n));
  }
  return levels;
}

/** The steps of `chains` for one die of `pool` followed `depth` dice deep. */
export function chainCost(pool, depth, score) {
  const face = faceWeights(pool);
  const faces = [...face.weights.keys()];
  const booms = faces.filter((f) => pool.explodes(f)).length;
  const n = BigInt(faces.length);
  if (pool.explode === null || !booms) return n;
  if (pool.explode === "!o") return weighed(n * BigInt(1 + booms), bitLength(face.denom ** 2n));
  const levels = chainLevels(pool, depth, score).reduce((a, b) => a + b, 0n);
  return weighed(levels * n, bitLength(face.denom ** BigInt(depth + 1)));
}

/** The refusal of exact odds that take `work` steps, past MAX_WORK: the
 * budget named (the Python runtime's words too). */
function budget(work) {
  const steps = String(work).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return (
    `the exact odds take ${steps} steps to work out, past the work budget ` +
    `of exact odds, ${grouped(MAX_WORK)} steps (a limit of the runtime, not of the ` +
    `rules)${HINT}`
  );
}

/** The steps `odds(dice, depth)` takes (each weighed by the size of the
 * numbers it works on), a bigint worked out from the dice alone before any of
 * the work: no fewer than it takes. `odds` refuses past MAX_WORK. Throws
 * RuleInputError for a `depth` outside 0..100. */
export function oddsWork(dice, depth = DEPTH) {
  if (!(dice instanceof DiceSum)) {
    throw new RuleInputError(`dice must be a DiceSum, not ${shown(dice)}`);
  }
  if (!Number.isInteger(depth) || !(depth >= 0 && depth <= MAX_DEPTH)) {
    throw new RuleInputError(`depth must be an int in 0..${MAX_DEPTH}, not ${shown(depth)}`);
  }
  return nodeSpan(dice, (pool) => poolShape(pool, depth))[1];
}

/** Whether a pool keeps its highest dice (else its lowest, or all). */
function ranksHighest(pool) {
  return pool.keep === "kh" || pool.keep === "dl";
}

/** The least and most score of one die of `pool` (`!p`: its face less 1 too). */
function dieScores(pool, score) {
  const faces = [...faceWeights(pool).weights.keys()];
  const less = pool.explode === "!p" ? faces.map((f) => f - 1) : [];
  return span([...faces, ...less].map(score));
}

/** The shape of a unique pool's odds (`uniqueWeights`) and its steps, as
 * the Python runtime's `unique_shape`. */
function uniqueShape(pool) {
  const face = faceWeights(pool);
  const d = BigInt(face.weights.size);
  const count = BigInt(pool.count);
  const [low, high] = span([...face.weights.keys()].map(scorer(pool, true)));
  const lo = BigInt(Math.min(low, 0)) * count;
  const hi = BigInt(Math.max(high, 0)) * count;
  let denom;
  let work;
  if (new Set(face.weights.values()).size === 1) {
    denom = comb(face.weights.size, pool.count);
    work = weighed(d * (count + 1n) * (hi - lo + 1n), bitLength(denom));
  } else {
    denom = face.denom ** count * d ** count;
    work = weighed(2n ** d * d * (d + 1n), bitLength(denom));
  }
  return [times(new Shape(lo, hi, hi - lo + 1n, denom), pool.multiplier), work];
}

/** The shape of a pool that keeps among all its dice (`keepChains`) and its
 * steps, as the Python runtime's `keep_chains_shape`. */
function keptShape(pool, depth) {
  const n = BigInt(pool.keepCount);
  const drop = pool.keep === "dh" || pool.keep === "dl";
  const face = faceWeights(pool);
  const sides = BigInt(face.weights.size);
  const held = comb(Number(sides * (pool.explode === "!p" ? 2n : 1n) + n), pool.keepCount);
  const [low, high] = dieScores(pool, scorer(pool, true));
  const dice = pool.explode === "!o" ? 2n : BigInt(depth + 1); // a chain's dice, at most
  const width = BigInt(Math.max(high, 0) - Math.min(low, 0) + 1);
  let outcomes;
  let denom;
  if (pool.explode === "!o") {
    [outcomes, denom] = [sides * (1n + sides), face.denom ** 2n];
  } else {
    const levels = chainLevels(pool, depth, null).reduce((a, b) => a + b, 0n);
    [outcomes, denom] = [levels * sides, face.denom ** BigInt(depth + 1)];
  }
  const one = least(outcomes, held * (drop ? dice * width + 1n : 1n));
  let work = chainCost(pool, depth, null) * (n + 1n);
  let states = 1n;
  for (let i = 1n; i <= BigInt(pool.count); i++) {
    work += weighed(states * one * (n + dice), bitLength(denom ** i));
    states = least(states * one, held * (drop ? i * dice * width + 1n : 1n));
  }
  work += states * (n + 1n);
  const kept = BigInt(pool.count) * dice;
  const [lo, hi] = [BigInt(Math.min(low, 0)) * kept, BigInt(Math.max(high, 0)) * kept];
  const size = most(least(states, hi - lo + 1n), 1n);
  return [times(new Shape(lo, hi, size, denom ** BigInt(pool.count)), pool.multiplier), work];
}

function poolShape(pool, depth) {
  if (pool.unique) return uniqueShape(pool);
  if (pool.keep !== null && apart(pool)) return keptShape(pool, depth);
  const target = pool.target;
  const plain = pool.explode === null;
  let die;
  let cost;
  let known;
  if (target === null || apart(pool)) {
    [die, cost, known] = dieShape(pool, depth, scorer(pool, true));
    if (pool.keep === null) {
      const [shape, more] = powerShape(die, pool.count, plain);
      return [times(shape, pool.multiplier), cost + more];
    }
  } else {
    [die, cost, known] = dieShape(pool, depth, scorer(pool, false));
  }
  const score = scorer(pool, true);
  if (pool.keep === null) {
    let counted = known === null ? die : shapeOf(known.mapped(score));
    const low = pool.failure === null ? 0n : -1n; // each die's score
    if (target !== null && known === null) counted = new Shape(low, 1n, least(die.size, 2n - low), die.denom);
    const [shape, more] = powerShape(counted, pool.count, plain);
    return [times(shape, pool.multiplier), cost + more];
  }
  const highest = pool.keep === "kh" || pool.keep === "dl";
  let outcomes;
  let spans;
  if (known !== null) {
    const scores = [...known.weights.keys()].sort((a, b) => (highest ? b - a : a - b)).map(score);
    outcomes = BigInt(scores.length);
    spans = spanSum(scores);
  } else {
    outcomes = die.size + (["!", "!!", "!p"].includes(pool.explode) ? 1n : 0n); // the tail
    const width = target === null ? die.hi - die.lo : pool.failure === null ? 1n : 2n;
    spans = most(outcomes - 1n, 0n) * width;
  }
  const keep = BigInt(pool.kept);
  const after = BigInt(pool.count + 1);
  const first = (keep * (keep - 1n)) / 2n;
  const second = ((keep - 1n) * keep * (2n * keep - 1n)) / 6n;
  const steps = (after * first - second) * spans + (after * keep - first) * outcomes;
  const denom = die.denom ** BigInt(pool.count);
  const more = weighed(steps, bitLength(denom));
  const [low, high] = target === null ? [die.lo, die.hi] : [pool.failure === null ? 0n : -1n, 1n];
  const shape = new Shape(keep * low, keep * high, keep * high - keep * low + 1n, denom);
  return [times(shape, pool.multiplier), cost + more];
}

/** The sum over the outcomes, in order, of how far apart the scores of those
 * before it lie. */
function spanSum(scores) {
  let total = 0n;
  let low = null;
  let high = null;
  for (const value of scores) {
    if (low !== null) total += BigInt(high - low);
    low = low === null ? value : Math.min(low, value);
    high = high === null ? value : Math.max(high, value);
  }
  return total;
}

/** The shape of `chainWeights(pool, depth, score)`, its steps, and for a die
 * that does not explode its weights themselves (else null). */
function dieShape(pool, depth, score) {
  const cost = chainCost(pool, depth, score);
  const face = faceWeights(pool);
  const faces = [...face.weights.keys()];
  const boom = faces.filter((f) => pool.explodes(f)).map(score);
  if (pool.explode === null || !boom.length) {
    const weights = chainWeights(pool, depth, score);
    return [shapeOf(weights), cost, weights];
  }
  const stop = faces.filter((f) => !pool.explodes(f)).map(score);
  const every = faces.map(score);
  const [bLow, bHigh] = span(boom);
  const [eLow, eHigh] = span(every);
  if (pool.explode === "!o") {
    const [sLow, sHigh] = stop.length ? span(stop) : [Infinity, -Infinity];
    const lo = BigInt(Math.min(sLow, bLow + eLow));
    const hi = BigInt(Math.max(sHigh, bHigh + eHigh));
    const size = least(BigInt(stop.length + boom.length * every.length), hi - lo + 1n);
    return [new Shape(lo, hi, size, face.denom ** 2n), cost, null];
  }
  const denom = face.denom ** BigInt(depth + 1);
  if (!stop.length) return [new Shape(0n, 0n, 0n, denom), cost, null];
  const [sLow, sHigh] = span(stop);
  const d = BigInt(depth);
  let lo = BigInt(sLow) + least(0n, d * BigInt(bLow));
  let hi = BigInt(sHigh) + most(0n, d * BigInt(bHigh));
  if (pool.explode === "!p" && depth) {
    // a die an explosion adds counts its face less 1
    const [lLow, lHigh] = span(faces.map((f) => score(f - 1)));
    lo = least(lo, BigInt(bLow + lLow) + least(0n, (d - 1n) * BigInt(lLow)));
    hi = most(hi, BigInt(bHigh + lHigh) + most(0n, (d - 1n) * BigInt(lHigh)));
  }
  const levels = chainLevels(pool, depth, score).reduce((a, b) => a + b, 0n);
  return [new Shape(lo, hi, least(levels * BigInt(stop.length), hi - lo + 1n), denom), cost, null];
}

/** The shape of `power` of `count` dice of `die`'s shape, and its steps. */
function powerShape(die, count, plain, below = null) {
  if (plain && die.plain) {
    const sides = die.size;
    const n = BigInt(count);
    const denom = die.denom ** n;
    const steps = n * (sides + 1n) + ((sides - 1n) * n * (n - 1n)) / 2n;
    const size = n * (sides - 1n) + 1n;
    return [new Shape(n * die.lo, n * die.hi, size, denom), weighed(steps, bitLength(denom), false)];
  }
  let result = new Shape(0n, 0n, 1n, 1n);
  let square = die;
  let cost = 0n;
  let left = count;
  while (left) {
    if (left & 1) {
      cost += plusCost(result, square);
      result = plusShape(result, square, below);
    }
    left >>= 1;
    if (left) {
      cost += plusCost(square, square);
      square = plusShape(square, square, below);
    }
  }
  return [result, cost];
}

/** A shape's values each times `multiplier` (at least 1). */
function times(shape, multiplier) {
  const m = BigInt(multiplier);
  return new Shape(shape.lo * m, shape.hi * m, shape.size, shape.denom, shape.plain);
}

/** The odds of one pool alone as the rules' success pools list them: a pool
 * that counts with `!`, every face that explodes meeting its target, lists
 * each count up to `depth` with its whole chance (a die cut at the depth has
 * more), the larger counts its tail; any other pool as `odds`. */
export function countedOdds(pool, depth = DEPTH) {
  const work = countedWork(pool, depth);
  const below = exactBelow(pool, depth);
  if (below === null) return odds(new DiceSum([new Term(1, pool)]), depth);
  if (work > BigInt(MAX_WORK)) throw new RuleInputError(budget(work));
  spend(work, HINT);
  const die = chainWeights(pool, depth, scorer(pool, true)).below(below);
  const found = power(die, pool.count, false, below).mapped((v) => v * pool.multiplier);
  const chances = new Map();
  for (const [v, w] of found.weights) chances.set(v, fraction(w, found.denom));
  return new Odds(chances, fraction(found.top, found.denom));
}

/** The steps of `countedOdds(pool, depth)`, known before the work. */
export function countedWork(pool, depth = DEPTH) {
  if (!(pool instanceof Pool)) throw new RuleInputError(`pool must be a Pool, not ${shown(pool)}`);
  const dice = new DiceSum([new Term(1, pool)]);
  const below = exactBelow(pool, depth);
  const work = oddsWork(dice, depth); // (its checks of the arguments)
  if (below === null) return work;
  let [die, cost] = dieShape(pool, depth, scorer(pool, true));
  const hi = least(die.hi, BigInt(below) - 1n);
  die = new Shape(die.lo, hi, most(least(die.size, hi - die.lo + 1n), 0n), die.denom, die.plain);
  return cost + powerShape(die, pool.count, false, below)[1];
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

/** Whether the dice an explosion adds are dice of their own (`!`, `!p`,
 * `!o`; `!!` adds into its die). */
function apart(pool) {
  return pool.explode === "!" || pool.explode === "!p" || pool.explode === "!o";
}

/** A die's score: its value, or with a target 1 where it meets the target,
 * less 1 where it meets the failure. */
function scorer(pool, perFace) {
  const { target, failure } = pool;
  if (target === null || !perFace) return (v) => v;
  if (failure === null) return (v) => (target.meets(v) ? 1 : 0);
  return (v) => (target.meets(v) ? 1 : 0) - (failure.meets(v) ? 1 : 0);
}

/** `count` dice added up (by squaring; a plain die by a sliding window); with
 * `below`, the sums from `below` on left unknown (no die is negative). */
function power(die, count, plain, below = null) {
  if (plain && isPlain(die)) return windowed(die, count);
  let result = new Weights([[0, 1n]], 0n, 1n);
  let square = die;
  let left = count;
  while (left) {
    if (left & 1) result = result.plus(square, below);
    left >>= 1;
    if (left) square = square.plus(square, below);
  }
  return result;
}

/** Whether `die` is equally likely to show each of a run of whole numbers. */
function isPlain(die) {
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
function windowed(die, count) {
  // its work: every die adds its sides to the sums so far
  const [low] = span(die.weights.keys());
  const sides = die.weights.size;
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
function keepDist(die, count, keep, highest, score) {
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
    const later = [1n];
    for (let t = 1; t <= count; t++) later.push(later[t - 1] * rest);
    const after = new Map();
    for (const [placed, sofar, ways] of states.values()) {
      const left = count - placed;
      let choose = 1n; // comb(left, t)
      for (let t = 0; t <= left; t++) {
        if (t) choose = (choose * BigInt(left - t + 1)) / BigInt(t);
        const more = ways * choose * powers[t];
        const kept = Math.min(t, keep - placed);
        if (value === null && kept) {
          tail += more * later[left - t];
          continue;
        }
        const total = sofar + (value !== null ? kept * score(value) : 0);
        if (placed + t >= keep) {
          add(done, total, more * later[left - t]);
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
