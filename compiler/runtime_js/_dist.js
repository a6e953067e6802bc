/**
 * Distributions of the odds engine: chances as whole weights over a
 * denominator, and answers in order (the JavaScript twin of the Python
 * runtime's _dist.py; the same answers, chance for chance).
 *
 * A `Dist` is what every part of the engine hands on: a source's chances (a
 * dice total, a pool's folds, another rule's odds), an environment of values
 * still needed, a turn's next state. Its weights are bigints over `denom`;
 * `cut` is the weight of the rolls an explosion's depth (or a repeat's) cut
 * off, whose value is unknown: the `tail` of the answer.
 *
 * A value is a number, a flag, a string, null or a list (a frozen array,
 * kept by its items: two lists of the same items are one value).
 */

import { RuleInputError } from "./errors.js";
import { MAX_ENTRIES, gcd, grouped } from "./_support.js";

/** A value as a key of a Map: a list by its items (a value of another type
 * is a key as it is, and never a string that starts with "l"). */
export function keyOf(value) {
  if (Array.isArray(value)) return "l" + JSON.stringify(value);
  return typeof value === "string" ? "s" + value : value;
}

/** A value as the chances keep it: a list frozen (as Python's tuple). */
export function kept(value) {
  if (!Array.isArray(value) || Object.isFrozen(value)) return value;
  return Object.freeze(value.map(kept));
}

/** Weights by value as they are added up (each value once, by `keyOf`). */
export class Tally {
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
 * Chances of a part of a rule as whole (bigint) `weights` (a Map by value)
 * over `denom`; `cut`: the weight of the rolls an explosion's depth cut off.
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

/** The chances of item `at` of a distribution over lists (a field of the
 * fields an engine's run answers). */
export function marginal(part, at) {
  const found = new Tally();
  for (const [value, w] of part.weights) found.add(value[at], w);
  return new Dist(found, part.cut, part.denom);
}

/** Chances as exact fractions (a Map, and the `tail` an explosion left), as
 * whole weights over their common denominator. */
export function weighedDist(chances, tail) {
  let denom = tail.denominator;
  for (const p of chances.values()) denom = lcm(denom, p.denominator);
  const weights = [...chances].map(([v, p]) => [v, p.numerator * (denom / p.denominator)]);
  const cut = tail.numerator * (denom / tail.denominator);
  return new Dist(weights, cut, denom);
}

export function lcm(a, b) {
  return (a / gcd(a, b)) * b;
}

/** Answers in order: null first, then flags and numbers, then text (by code
 * point, as Python orders strings), the labels of an enum in its order
 * (`labels(at)`: the labels of the item at `at` of a list, null for none);
 * lists item by item. */
export function compare(a, b, labels = () => null, at = 0) {
  const rank = (v) => (v === null ? 0 : typeof v === "string" ? 2 : Array.isArray(v) ? 3 : 1);
  if (rank(a) !== rank(b)) return rank(a) - rank(b);
  if (Array.isArray(a)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const order = compare(a[i], b[i], labels, i);
      if (order) return order;
    }
    return a.length - b.length;
  }
  if (typeof a === "string") {
    const order = labels(at);
    if (order !== null) return order.get(a) - order.get(b);
    return byCodePoint(a, b);
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
