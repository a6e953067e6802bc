/**
 * Odds of a rule's answer: exact chances built from the chances of its dice
 * (the JavaScript twin of the Python runtime's odds.py; the same answers,
 * chance for chance).
 *
 * A generated `<function>Odds` works its rule's expression out over chances
 * instead of rolls. Each dice term is independent of every other (an
 * expression rolls each term it reaches once), so the chances of a part of the
 * expression come from the chances of its parts: `apply` combines independent
 * parts value by value (as a convolution does), `bind` follows a condition
 * into the branch it takes (a mixture), and the dice terms come from
 * ./dice_odds.js (a total) or from `results` (the dice a pool keeps, as a
 * multiset: the functions of a pool's results do not depend on their order);
 * a call of another rule that rolls is what its odds function answers
 * (`called`). No roll is enumerated: a part's chances are kept per distinct
 * value. Weights are bigints, chances exact `{numerator, denominator}`
 * fractions.
 *
 * A value is a number, a flag, a string, null or a list (a frozen array, kept
 * by its items: two lists of the same items are one value).
 *
 * An explosion is followed `depth` dice deep; the chance of the rolls cut off
 * there is the `tail` of the answer, and the chances of the answers known sum
 * to `1 - tail`.
 */

import { DiceSum, Term } from "./dice_terms.js";
import { DEPTH, chainCost, chainWeights, chains, faceWeights, odds as totalOdds } from "./dice_odds.js";
import { RuleInputError } from "./errors.js";
import { toData } from "./json.js";
import {
  MAX_ENTRIES,
  addFractions,
  bitLength,
  fraction,
  gcd,
  grouped,
  shown,
  spend,
  weighed as steps,
} from "./_support.js";

/**
 * Each answer a rule can give with its exact chance (a Map, answers
 * ascending), and the `tail`: the chance that an explosion was cut off at the
 * depth, leaving the answer unknown (0 for a rule without unbounded
 * explosions); the chances listed sum to `1 - tail`. Its JSON is an object of
 * its answers, as the Python runtime's `Chances` (a dict) writes.
 */
export class Chances extends Map {
  #tail;

  constructor(entries, tail) {
    super(entries);
    this.#tail = tail;
  }

  /** The chance left unknown by an explosion cut off at the depth. */
  get tail() {
    return this.#tail;
  }

  /** The chance of an answer of `value` or more, for a rule answering whole
   * numbers: all but the chance of the answers below it (the tail counted in,
   * as an explosion cut off only adds). Throws `RuleInputError` for a `value`
   * that is not a safe integer, and for answers that are not whole numbers. */
  atLeast(value) {
    if (!Number.isSafeInteger(value)) {
      throw new RuleInputError(`value must be an int, not ${shown(value)}`);
    }
    let below = fraction(0n);
    for (const [answer, chance] of this) {
      if (!Number.isSafeInteger(answer)) {
        throw new RuleInputError(`at_least compares whole-number answers, not ${shown(answer)}`);
      }
      if (answer < value) below = addFractions(below, chance);
    }
    return addFractions(fraction(1n), fraction(-below.numerator, below.denominator));
  }

  toJSON() {
    return toData(this);
  }
}

/** A value as a key of a Map: a list by its items (a value of another type
 * is a key as it is, and never a string that starts with "l"). */
function keyOf(value) {
  if (Array.isArray(value)) return "l" + JSON.stringify(value);
  return typeof value === "string" ? "s" + value : value;
}

/** A value as the chances keep it: a list frozen (as Python's tuple). */
function kept(value) {
  if (!Array.isArray(value) || Object.isFrozen(value)) return value;
  return Object.freeze(value.map(kept));
}

/** Weights by value as they are added up (each value once, by `keyOf`). */
class Tally {
  constructor() {
    this.found = new Map();
  }

  add(value, weight) {
    const key = keyOf(value);
    const had = this.found.get(key);
    if (had === undefined) this.found.set(key, [kept(value), weight]);
    else had[1] += weight;
  }

  [Symbol.iterator]() {
    return this.found.values();
  }
}

/**
 * Chances of a part of an expression as whole (bigint) `weights` (a Map by
 * value) over `denom`; `cut`: the weight of the rolls an explosion's depth cut
 * off.
 */
export class Dist {
  constructor(weights, cut, denom) {
    const found = new Tally();
    for (const [value, weight] of weights) found.add(value, weight);
    if (found.found.size > MAX_ENTRIES) {
      throw new RuleInputError(
        `the odds have more than ${grouped(MAX_ENTRIES)} values ` +
          "(a limit of the runtime, not of the rules)",
      );
    }
    this.weights = new Map();
    for (const [value, weight] of found) if (weight) this.weights.set(value, weight);
    this.cut = cut;
    this.denom = denom;
  }
}

/** A value known for certain. */
function constant(value) {
  return new Dist([[value, 1n]], 0n, 1n);
}

export { constant as const };

/** The chances of `how` of independent parts' values. */
export function apply(how, ...parts) {
  const denom = parts.reduce((n, p) => n * p.denom, 1n);
  spend(steps(parts.reduce((n, p) => n * BigInt(p.weights.size), 1n), bitLength(denom)));
  const found = new Tally();
  const lists = parts.map((p) => [...p.weights]);
  const values = new Array(parts.length);
  const combine = (i, weight) => {
    if (i === lists.length) {
      found.add(how(...values), weight);
      return;
    }
    for (const [v, w] of lists[i]) {
      values[i] = v;
      combine(i + 1, weight * w);
    }
  };
  combine(0, 1n);
  const known = parts.reduce((n, p) => n * (p.denom - p.cut), 1n);
  return new Dist(found, denom - known, denom);
}

/** The chances of `then(value)`'s answer, for each value `part` takes: what
 * follows a condition, or a count or sides rolled. */
export function bind(part, then) {
  const branches = [...part.weights].map(([v, w]) => [w, then(v)]);
  const common = branches.reduce((n, [, b]) => lcm(n, b.denom), 1n);
  const taken = branches.reduce((n, [, b]) => n + b.weights.size, 0);
  spend(steps(BigInt(taken), bitLength(part.denom * common)));
  const found = new Tally();
  let cut = part.cut * common;
  for (const [weight, branch] of branches) {
    const scale = weight * (common / branch.denom);
    for (const [value, w] of branch.weights) found.add(value, scale * w);
    cut += scale * branch.cut;
  }
  return new Dist(found, cut, part.denom * common);
}

/** `part`'s chances, its values with the same `key` as one (the first of them
 * standing for all): what the rest reads of it only through `key`. */
export function group(part, key) {
  const standing = new Map();
  const found = new Tally();
  for (const [value, w] of part.weights) {
    const k = keyOf(key(value));
    if (!standing.has(k)) standing.set(k, value);
    found.add(standing.get(k), w);
  }
  return new Dist(found, part.cut, part.denom);
}

/** A count's chances as lists of that many `face`: the dice of a pool that the
 * rest reads only through how many of them meet a target, worked out as that
 * count (a total, not a multiset of dice). */
export function repeated(part, face) {
  const found = new Tally();
  for (const [value, w] of part.weights) found.add(new Array(value).fill(face), w);
  return new Dist(found, part.cut, part.denom);
}

/** A guard's refusal where the odds reach it (it reads no rolled value: the
 * call is refused as the function refuses it). */
export function refuse(message) {
  throw new RuleInputError(message);
}

/** One dice term: `make(count, sides)`'s total, or with `listed` the dice it
 * keeps (a sorted list); no dice (a count of 0) total 0. */
export function dice(make, count, sides, listed, depth = DEPTH) {
  const rolled = (n, s) => {
    if (!n) return constant(listed ? [] : 0);
    const pool = make(n, s);
    return listed ? results(pool, depth) : total(pool, depth);
  };
  return bind(count, (n) => bind(sides, (s) => rolled(n, s)));
}

/** A roll of a dice value (`roll(d)`): its exact distribution. */
export function rolled(dice) {
  return weighed(dice.distribution(), fraction(0n));
}

/** The chances another rule's odds function answers (a call of a rule that
 * rolls), as a part of the caller's: its dice are its own, independent of the
 * caller's. */
export function called(chances) {
  return weighed(chances, chances.tail);
}

/** The chances as exact fractions, answers ascending (`labels`, when given,
 * the labels of an enum in its order: they answer in that order, as Python's). */
export function answer(part, labels = null) {
  const rank = labels === null ? null : new Map(labels.map((label, i) => [label, i]));
  const order = (a, b) =>
    rank !== null && typeof a === "string" && typeof b === "string"
      ? rank.get(a) - rank.get(b)
      : compare(a, b);
  const chances = [...part.weights]
    .sort((a, b) => order(a[0], b[0]))
    .map(([v, w]) => [v, fraction(w, part.denom)]);
  return new Chances(chances, fraction(part.cut, part.denom));
}

/**
 * The dice `pool` keeps, lowest first: a dynamic programme over the dice one
 * at a time, a state being the multiset kept so far (the dice a keep drops are
 * dropped as they go: they can never be kept again).
 */
export function results(pool, depth) {
  const die = dieOf(pool, depth);
  const keep = pool.keep !== null ? pool.kept : null;
  const highest = pool.keep === "kh" || pool.keep === "dl";
  let states = new Tally();
  states.add([], 1n);
  let denom = 1n;
  for (let i = 0; i < pool.count; i++) {
    const width = states.found.values().next().value[0].length + 1; // each merge copies a state's dice
    denom *= die.denom;
    const work = BigInt(states.found.size) * BigInt(die.weights.size) * BigInt(width);
    spend(steps(work, bitLength(denom)));
    const after = new Tally();
    for (const [state, ways] of states) {
      for (const [shown, w] of die.weights) {
        let merged = [...state, ...shown].sort(ordered);
        if (keep !== null) {
          // the highest: all while fewer than `keep` (no index from the end)
          const cut = highest ? Math.max(merged.length - keep, 0) : 0;
          merged = merged.slice(cut, cut + keep);
        }
        after.add(merged, ways * w);
      }
    }
    if (after.found.size > MAX_ENTRIES) {
      throw new RuleInputError(
        `${pool} keeps more than ${grouped(MAX_ENTRIES)} sets of dice ` +
          "(a limit of the runtime, not of the rules)",
      );
    }
    states = after;
  }
  const count = BigInt(pool.count);
  return new Dist(states, denom - (die.denom - die.cut) ** count, denom);
}

/** One die of `pool` as the dice it adds to the list (sorted): one, or with
 * `!` and `!o` the die and the dice its explosion adds. */
function dieOf(pool, depth) {
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

/** The chances of `pool`'s total, from ./dice_odds.js. */
function total(pool, depth) {
  const chances = totalOdds(new DiceSum([new Term(1, pool)]), depth);
  return weighed(chances.chances, chances.tail);
}

/** Chances as exact fractions (a Map, and the `tail` an explosion left), as
 * whole weights over their common denominator. */
function weighed(chances, tail) {
  let denom = tail.denominator;
  for (const p of chances.values()) denom = lcm(denom, p.denominator);
  const weights = [...chances].map(([v, p]) => [v, p.numerator * (denom / p.denominator)]);
  const cut = tail.numerator * (denom / tail.denominator);
  return new Dist(weights, cut, denom);
}

function lcm(a, b) {
  return (a / gcd(a, b)) * b;
}

/** Dice in order: numbers ascending; faces of symbols as Python orders
 * their tuples (`compare`). */
function ordered(a, b) {
  return typeof a === "number" && typeof b === "number" ? a - b : compare(a, b);
}

/** Answers in order: null first, then flags and numbers, then text (by code
 * point, as Python orders strings); lists item by item. */
function compare(a, b) {
  const rank = (v) => (v === null ? 0 : typeof v === "string" ? 2 : 1);
  if (rank(a) !== rank(b)) return rank(a) - rank(b);
  if (typeof a === "string") return byCodePoint(a, b);
  if (Array.isArray(a)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const order = compare(a[i], b[i]);
      if (order) return order;
    }
    return a.length - b.length;
  }
  return Number(a) - Number(b);
}

function byCodePoint(a, b) {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return x[i].codePointAt(0) - y[i].codePointAt(0);
  }
  return x.length - y.length;
}
