/**
 * Dice nodes' odds: the exact distribution of a dice expression's tree above
 * its pools (sums in parentheses, `*` `/`, functions, comparisons of totals,
 * groups, labels), and the steps it takes, known before the work.
 *
 * Every part of a tree is independent of the others (each pool appears once),
 * so a node's chances combine its parts' pairwise: `+ -` convolve, `* /`,
 * `max`, `min` and a comparison combine the two supports, `floor`, `ceil`,
 * `round`, `abs` map one; a label is its node. A group adds its items' totals,
 * keeps or drops some of them (a state: the totals kept so far, sorted) or
 * counts those meeting its target (less its failures).
 *
 * Values are exact (./dice_tree.js: a number when whole, else a fraction);
 * chances are whole (bigint) weights over a denominator, `top` the weight of
 * the outcomes an explosion cut at the depth leaves unknown. A pool's chances
 * come from ./dice_odds.js (`leaf`), which this module does not import.
 */

import { DiceSum, Pool, Value } from "./dice_terms.js";
import { Binary, Call, FUNCTIONS, Group, Labeled, Test, divided, holds, negated, order, plus, times } from "./dice_tree.js";
import { RuleInputError } from "./errors.js";
import {
  MAX_ENTRIES,
  addFractions,
  bitLength,
  divFractions,
  fraction,
  grouped,
  mulFractions,
  weighed,
} from "./_support.js";

/** a + b: two numbers by the short way, else exactly. */
function sum(a, b) {
  if (typeof a === "number" && typeof b === "number" && Number.isSafeInteger(a + b)) return a + b;
  return plus(a, b);
}

/** The key of a value in a map: the number itself, or a fraction's "n/d". */
export function keyOf(value) {
  return typeof value === "number" ? value + 0 : `${value.numerator}/${value.denominator}`;
}

function sumOf(weights) {
  let total = 0n;
  for (const w of weights) total += w;
  return total;
}

/** Chances of exact values as whole weights over `denom` (a Map of key ->
 * [value, weight]); `top`: the weight of the values left unknown. */
export class Values {
  constructor(found, top, denom) {
    this.found = found;
    this.top = top;
    this.denom = denom;
  }

  /** One value, certain. */
  static point(value) {
    return new Values(new Map([[keyOf(value), [value, 1n]]]), 0n, 1n);
  }

  /** The values of a pool's whole-number weights (./dice_odds.js's `Weights`). */
  static of(weights) {
    const found = new Map();
    for (const [v, w] of weights.weights) found.set(v, [v, w]);
    return new Values(found, weights.top, weights.denom);
  }

  get size() {
    return this.found.size;
  }

  /** Each value `how(value)`, weights of equal values added. */
  mapped(how) {
    const found = new Map();
    for (const [value, weight] of this.found.values()) put(found, how(value), weight);
    return new Values(found, this.top, this.denom);
  }

  /** `how(a, b)` of two independent parts, every pair of their values (a
   * value either leaves unknown is unknown). */
  with(other, how) {
    const found = new Map();
    const theirs = [...other.found.values()];
    for (const [a, wa] of this.found.values()) {
      for (const [b, wb] of theirs) put(found, how(a, b), wa * wb);
    }
    const denom = this.denom * other.denom;
    return new Values(found, denom - sumOf([...found.values()].map(([, w]) => w)), denom);
  }
}

function put(found, value, weight) {
  const key = keyOf(value);
  const had = found.get(key);
  if (had === undefined) found.set(key, [value, weight]);
  else had[1] += weight;
}

function tooMany(node) {
  return new RuleInputError(
    `${node} has more than ${grouped(MAX_ENTRIES)} values (a limit of the runtime, not of the rules)`,
  );
}

/** Refused past MAX_ENTRIES values (named by the node that has them). */
function bounded(values, node) {
  if (values.size > MAX_ENTRIES) throw tooMany(node);
  return values;
}

/** Whether a total (perhaps a fraction) meets a condition of a group. */
function meetsTotal(condition, value) {
  const each = "conditions" in condition ? condition.conditions : [condition];
  return each.some((c) => holds(c.op, value, c.value));
}

const UNARY = new Set(["floor", "ceil", "round", "abs"]);

/**
 * The chances of `node`'s value: `leaf(pool)` a pool's weights. Throws
 * RuleInputError for a divisor that can be 0, and past MAX_ENTRIES values.
 */
export function nodeValues(node, leaf) {
  if (node instanceof Pool) return Values.of(leaf(node));
  if (!(node instanceof Value)) return Values.point(node);
  const of = (n) => nodeValues(n, leaf);
  if (node instanceof DiceSum) {
    let total = Values.point(0);
    for (const term of node.terms) {
      const part = of(term.value);
      total = bounded(total.with(term.sign < 0 ? part.mapped(negated) : part, sum), node);
    }
    return total;
  }
  if (node instanceof Labeled) return of(node.node);
  if (node instanceof Call) {
    const args = node.args.map(of);
    const how = FUNCTIONS[node.name];
    if (UNARY.has(node.name)) return args[0].mapped(how);
    return args.slice(1).reduce((a, b) => bounded(a.with(b, how), node), args[0]);
  }
  if (node instanceof Test) return of(node.left).with(of(node.right), (a, b) => (holds(node.op, a, b) ? 1 : 0));
  if (node instanceof Binary) {
    const [left, right] = [of(node.left), of(node.right)];
    if (node.op === "*") return bounded(left.with(right, times), node);
    if (right.found.has(0)) throw new RuleInputError(`${node}: division by zero (the divisor can be 0)`);
    return bounded(left.with(right, divided), node);
  }
  return groupValues(node, node.items.map(of));
}

/** A group's chances from its items': their sum, the totals kept, or a count. */
function groupValues(group, items) {
  const { target, failure } = group;
  const score = (v) =>
    (meetsTotal(target, v) ? 1 : 0) - (failure !== null && meetsTotal(failure, v) ? 1 : 0);
  if (group.keep === null) {
    const parts = target === null ? items : items.map((i) => i.mapped(score));
    return parts.reduce((a, b) => bounded(a.with(b, sum), group), Values.point(0));
  }
  const highest = group.keep === "kh" || group.keep === "dl";
  const keep = group.kept;
  // a state: the totals kept so far, best first (at most `keep` of them)
  let states = new Map([["", [[], 1n]]]);
  let denom = 1n;
  for (const item of items) {
    const after = new Map();
    for (const [kept, ways] of states.values()) {
      for (const [value, weight] of item.found.values()) {
        const more = [...kept, value].sort((a, b) => (highest ? order(b, a) : order(a, b))).slice(0, keep);
        const key = more.map(keyOf).join(",");
        const had = after.get(key);
        if (had === undefined) after.set(key, [more, ways * weight]);
        else had[1] += ways * weight;
      }
    }
    if (after.size > MAX_ENTRIES) throw tooMany(group);
    states = after;
    denom *= item.denom;
  }
  const found = new Map();
  for (const [kept, ways] of states.values()) {
    const value = target === null ? kept.reduce(sum, 0) : kept.reduce((n, v) => n + score(v), 0);
    put(found, value, ways);
  }
  return new Values(found, denom - sumOf([...found.values()].map(([, w]) => w)), denom);
}

// -- what the work costs, known before it (as the Python runtime's span_of) --------

const F0 = fraction(0n);
const F1 = fraction(1n);
const fmin = (a, b) => (cmp(a, b) <= 0 ? a : b);
const fmax = (a, b) => (cmp(a, b) >= 0 ? a : b);

/** -1, 0 or 1 as fraction a is below, equal to or above fraction b. */
function cmp(a, b) {
  const [x, y] = [a.numerator * b.denominator, b.numerator * a.denominator];
  return x < y ? -1 : x > y ? 1 : 0;
}

function floorOf(f) {
  const q = f.numerator / f.denominator;
  return fraction(f.numerator < 0n && q * f.denominator !== f.numerator ? q - 1n : q);
}

const neg = (f) => fraction(-f.numerator, f.denominator);
/** The functions on exact bounds (fractions of bigints: never past a limit). */
const BOUNDS = {
  floor: floorOf,
  ceil: (f) => neg(floorOf(neg(f))),
  round: (f) => floorOf(addFractions(f, fraction(1n, 2n))),
  abs: (f) => (f.numerator < 0n ? neg(f) : f),
  max: fmax,
  min: fmin,
};

/** What is known of a node's chances before they are worked out: its lowest
 * and highest values (fractions; null: not known), at most how many values it
 * has, the denominator of its weights (bigints), and whether every value is
 * whole. */
export class Span {
  constructor(lo, hi, size, denom, whole) {
    this.lo = lo;
    this.hi = hi;
    this.size = size;
    this.denom = denom;
    this.whole = whole;
  }

  /** `size` or fewer: whole values between lo and hi are no more than the run. */
  most(size) {
    if (!this.whole || this.lo === null || this.hi === null) return size;
    const run = floorOf(addFractions(this.hi, neg(this.lo))).numerator + 1n;
    return run < 0n ? 0n : size < run ? size : run;
  }

  /** The same span, its size `most(size)`. */
  sized(size = this.size) {
    return new Span(this.lo, this.hi, this.most(size), this.denom, this.whole);
  }
}

/** The steps of combining two parts of these spans (every pair). */
function pairCost(a, b) {
  return weighed(a.size * b.size, bitLength(a.denom > b.denom ? a.denom : b.denom));
}

/**
 * The span of `node`'s chances and the steps `nodeValues` takes (a bigint),
 * from the tree alone: `leaf(pool)` a pool's [shape, steps] (its lo and hi
 * bigints).
 */
export function nodeSpan(node, leaf) {
  if (node instanceof Pool) {
    const [shape, cost] = leaf(node);
    return [new Span(fraction(shape.lo), fraction(shape.hi), shape.size, shape.denom, true), cost];
  }
  if (!(node instanceof Value)) {
    const value = typeof node === "number" ? fraction(BigInt(node)) : node;
    return [new Span(value, value, 1n, 1n, typeof node === "number"), 0n];
  }
  if (node instanceof DiceSum) return sumSpan(node.terms.map((t) => termSpan(t, leaf)));
  if (node instanceof Labeled) return nodeSpan(node.node, leaf);
  const children = node.children().map((c) => nodeSpan(c, leaf));
  const cost = children.reduce((n, [, c]) => n + c, 0n);
  const [span, more] = branchSpan(node, children.map(([s]) => s));
  return [span, cost + more];
}

function termSpan(term, leaf) {
  const [span, cost] = nodeSpan(term.value, leaf);
  if (term.sign > 0) return [span, cost];
  const lo = span.hi === null ? null : neg(span.hi);
  const hi = span.lo === null ? null : neg(span.lo);
  return [new Span(lo, hi, span.size, span.denom, span.whole), cost];
}

function plusSpan(a, b) {
  const known = a.lo !== null && a.hi !== null && b.lo !== null && b.hi !== null;
  const lo = known ? addFractions(a.lo, b.lo) : null;
  const hi = known ? addFractions(a.hi, b.hi) : null;
  return new Span(lo, hi, a.size * b.size, a.denom * b.denom, a.whole && b.whole).sized();
}

function sumSpan(terms) {
  let total = new Span(F0, F0, 1n, 1n, true);
  let work = 0n;
  for (const [span, cost] of terms) {
    work += cost + pairCost(total, span);
    total = plusSpan(total, span);
  }
  return [total, work];
}

function corners(a, b, how) {
  if (a.lo === null || a.hi === null || b.lo === null || b.hi === null) return [null, null];
  const found = [a.lo, a.hi].flatMap((x) => [b.lo, b.hi].map((y) => how(x, y)));
  return [found.reduce(fmin), found.reduce(fmax)];
}

/** The span of a Binary, Call, Test or Group of children of `spans`, and
 * the steps it takes on top of theirs. */
function branchSpan(node, spans) {
  if (node instanceof Group) return groupSpan(node, spans);
  const [first] = spans;
  if (node instanceof Call && UNARY.has(node.name)) {
    const how = BOUNDS[node.name];
    let lo = first.lo === null ? null : how(first.lo);
    let hi = first.hi === null ? null : how(first.hi);
    if (node.name === "abs" && lo !== null && hi !== null) {
      const [low, high] = [first.lo, first.hi];
      lo = cmp(low, F0) < 0 && cmp(F0, high) < 0 ? F0 : fmin(lo, hi);
      hi = fmax(how(low), how(high));
    }
    const span = new Span(lo, hi, first.size, first.denom, node.name !== "abs" || first.whole);
    return [span.sized(), first.size];
  }
  let total = first;
  let work = 0n;
  for (const span of spans.slice(1)) {
    work += pairCost(total, span);
    total = combinedSpan(node, total, span);
  }
  return [total, work];
}

/** The span of one pairwise step of a Binary, a max/min Call or a Test. */
function combinedSpan(node, a, b) {
  const [denom, size] = [a.denom * b.denom, a.size * b.size];
  if (node instanceof Test) return new Span(F0, F1, size < 2n ? size : 2n, denom, true);
  if (node instanceof Call) {
    // max, min: a value of either side
    const [lo, hi] = corners(a, b, BOUNDS[node.name]);
    const either = a.size + b.size;
    return new Span(lo, hi, size < either ? size : either, denom, a.whole && b.whole).sized();
  }
  if (node.op === "*") {
    const [lo, hi] = corners(a, b, mulFractions);
    return new Span(lo, hi, size, denom, a.whole && b.whole).sized();
  }
  const signed = b.lo !== null && b.hi !== null && (cmp(b.lo, F0) > 0 || cmp(b.hi, F0) < 0);
  const [lo, hi] = signed ? corners(a, b, divFractions) : [null, null];
  return new Span(lo, hi, size, denom, false);
}

function choose(n, k) {
  let found = 1n;
  for (let i = 1n; i <= k; i++) found = (found * (n - k + i)) / i;
  return found;
}

/** A group's span and steps: a sum or count pairs its items; keeping, a
 * state (the totals kept so far) tries each value of each item. */
function groupSpan(group, spans) {
  const kept = group.kept;
  const low = group.failure !== null ? -1n : 0n;
  let scored = spans;
  let work = 0n;
  if (group.target !== null) {
    scored = spans.map((s) => new Span(fraction(low), F1, s.size < 2n - low ? s.size : 2n - low, s.denom, true));
    work = spans.reduce((n, s) => n + s.size, 0n);
  }
  if (kept >= spans.length) {
    const [total, more] = sumSpan(scored.map((s) => [s, 0n]));
    return [total, work + more];
  }
  let [states, distinct, denom] = [1n, 0n, 1n];
  spans.forEach((span, i) => {
    denom *= span.denom;
    work += weighed(states * span.size, bitLength(denom));
    distinct += span.size;
    const top = BigInt(Math.min(kept, i + 1));
    const most = choose(distinct + top - 1n, top);
    states = states * span.size < most ? states * span.size : most;
  });
  work += states; // each state scored
  let span;
  if (group.target === null) {
    const known = spans.every((s) => s.lo !== null && s.hi !== null);
    const [lo, hi] = known ? keptRange(spans, kept, group.keep === "kh" || group.keep === "dl") : [null, null];
    span = new Span(lo, hi, states, denom, spans.every((s) => s.whole));
  } else {
    const k = BigInt(kept);
    span = new Span(fraction(low * k), fraction(k), states, denom, true);
  }
  return [span.sized(states), work];
}

/** The least and most sums of `kept` item totals of these spans. */
function keptRange(spans, kept, highest) {
  const order = (a, b) => (highest ? cmp(b, a) : cmp(a, b));
  const lows = spans.map((s) => s.lo).sort(order).slice(0, kept);
  const highs = spans.map((s) => s.hi).sort(order).slice(0, kept);
  return [lows.reduce(addFractions, F0), highs.reduce(addFractions, F0)];
}
