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
import { MAX_ENTRIES, bitLength, grouped, weighed } from "./_support.js";

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

/** Refused past MAX_ENTRIES values (of the whole expression `dice`). */
function bounded(values, dice) {
  if (values.size > MAX_ENTRIES) {
    throw new RuleInputError(
      `${dice} has more than ${grouped(MAX_ENTRIES)} values (a limit of the runtime, not of the rules)`,
    );
  }
  return values;
}

/** Whether a total (perhaps a fraction) meets a condition of a group. */
function meetsTotal(condition, value) {
  const each = "conditions" in condition ? condition.conditions : [condition];
  return each.some((c) => holds(c.op, value, c.value));
}

const UNARY = new Set(["floor", "ceil", "round", "abs"]);

/**
 * The chances of `node`'s value: `leaf(pool)` a pool's weights, `dice` the
 * whole expression (named where it passes MAX_ENTRIES values). Throws
 * RuleInputError for a divisor that can be 0.
 */
export function nodeValues(node, leaf, dice) {
  if (node instanceof Pool) return Values.of(leaf(node));
  if (!(node instanceof Value)) return Values.point(node);
  const of = (n) => nodeValues(n, leaf, dice);
  if (node instanceof DiceSum) {
    let total = Values.point(0);
    for (const term of node.terms) {
      const part = of(term.value);
      total = bounded(total.with(term.sign < 0 ? part.mapped(negated) : part, sum), dice);
    }
    return total;
  }
  if (node instanceof Labeled) return of(node.node);
  if (node instanceof Call) {
    const args = node.args.map(of);
    const how = FUNCTIONS[node.name];
    if (UNARY.has(node.name)) return args[0].mapped(how);
    return args.slice(1).reduce((a, b) => bounded(a.with(b, how), dice), args[0]);
  }
  if (node instanceof Test) return of(node.left).with(of(node.right), (a, b) => (holds(node.op, a, b) ? 1 : 0));
  if (node instanceof Binary) {
    const [left, right] = [of(node.left), of(node.right)];
    if (node.op === "*") return bounded(left.with(right, times), dice);
    if (right.found.has(0)) throw new RuleInputError(`${node}: division by zero (the divisor can be 0)`);
    return bounded(left.with(right, divided), dice);
  }
  return groupValues(node, node.items.map(of), dice);
}

/** A group's chances from its items': their sum, the totals kept, or a count. */
function groupValues(group, items, dice) {
  const { target, failure } = group;
  const score = (v) =>
    (meetsTotal(target, v) ? 1 : 0) - (failure !== null && meetsTotal(failure, v) ? 1 : 0);
  if (group.keep === null) {
    const parts = target === null ? items : items.map((i) => i.mapped(score));
    return parts.reduce((a, b) => bounded(a.with(b, sum), dice), Values.point(0));
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
    states = after;
    denom *= item.denom;
  }
  const found = new Map();
  for (const [kept, ways] of states.values()) {
    const value = target === null ? kept.reduce(sum, 0) : kept.reduce((n, v) => n + score(v), 0);
    put(found, value, ways);
  }
  return bounded(new Values(found, denom - sumOf([...found.values()].map(([, w]) => w)), denom), dice);
}

// -- what the work costs, known before it -----------------------------------------

/** What is known of a node's chances before they are worked out: at most how
 * many values it has, the denominator of its weights (bigints), and for whole
 * values the lowest and highest (else null). */
export class Extent {
  constructor(size, denom, lo = null, hi = null) {
    this.size = size;
    this.denom = denom;
    this.lo = lo;
    this.hi = hi;
  }

  /** The extent of a pool's shape (./dice_odds.js). */
  static of(shape) {
    return new Extent(shape.size, shape.denom, shape.lo, shape.hi);
  }
}

const least = (a, b) => (a < b ? a : b);

/** The extent of `how` of two parts; whole values from lo..hi when given. */
function paired(a, b, lo = null, hi = null) {
  let size = a.size * b.size;
  if (lo !== null) size = least(size, hi - lo + 1n);
  return new Extent(size, a.denom * b.denom, lo, hi);
}

/** The steps of combining two parts of these extents (every pair). */
function pairCost(a, b) {
  return weighed(a.size * b.size, bitLength(a.denom > b.denom ? a.denom : b.denom));
}

const WHOLE_CALLS = new Set(["floor", "ceil", "round"]);

/**
 * The extent of `node`'s chances and the steps `nodeValues` takes (a bigint),
 * known before the work: `leaf(pool)` a pool's [shape, steps].
 */
export function nodeExtent(node, leaf) {
  if (node instanceof Pool) {
    const [shape, cost] = leaf(node);
    return [Extent.of(shape), cost];
  }
  if (!(node instanceof Value)) {
    const whole = typeof node === "number" ? BigInt(node) : null;
    return [new Extent(1n, 1n, whole, whole), 0n];
  }
  if (node instanceof Labeled) return nodeExtent(node.node, leaf);
  const parts = node instanceof Group ? node.items : node instanceof Call ? node.args : node instanceof DiceSum ? node.terms.map((t) => t.value) : [node.left, node.right];
  const found = parts.map((p) => nodeExtent(p, leaf));
  let cost = found.reduce((n, [, c]) => n + c, 0n);
  const extents = found.map(([e]) => e);
  if (node instanceof DiceSum) {
    let total = new Extent(1n, 1n, 0n, 0n);
    node.terms.forEach((term, i) => {
      let part = extents[i];
      if (term.sign < 0 && part.lo !== null) part = new Extent(part.size, part.denom, -part.hi, -part.lo);
      cost += pairCost(total, part);
      const whole = total.lo !== null && part.lo !== null;
      total = paired(total, part, whole ? total.lo + part.lo : null, whole ? total.hi + part.hi : null);
    });
    return [total, cost];
  }
  if (node instanceof Call && UNARY.has(node.name)) {
    const [arg] = extents;
    return [new Extent(arg.size, arg.denom), cost + arg.size];
  }
  if (node instanceof Test) {
    const [a, b] = extents;
    return [paired(a, b, 0n, 1n), cost + pairCost(a, b)];
  }
  if (node instanceof Group) return groupExtent(node, extents, cost);
  // `*`, `/`, max, min: every pair, folded
  let total = extents[0];
  for (const next of extents.slice(1)) {
    cost += pairCost(total, next);
    total = paired(total, next);
  }
  return [total, cost];
}

function choose(n, k) {
  let found = 1n;
  for (let i = 1n; i <= k; i++) found = (found * (n - k + i)) / i;
  return found;
}

/** A group's extent and steps: a sum or count convolves its items; keeping,
 * each item tries each of its values on each state (a sorted choice of at
 * most `kept` of the values seen so far) and sorts it. */
function groupExtent(group, extents, cost) {
  let total = new Extent(1n, 1n);
  if (group.keep === null) {
    for (const item of extents) {
      const part = group.target === null ? item : new Extent(least(item.size, 3n), item.denom);
      cost += pairCost(total, part);
      total = paired(total, part);
    }
    return [total, cost];
  }
  const keep = BigInt(group.kept);
  let seen = 0n;
  let states = 1n;
  let denom = 1n;
  for (const item of extents) {
    cost += weighed(states * item.size * (keep + 1n), bitLength(denom * item.denom));
    seen += item.size;
    states = least(states * item.size, choose(seen + keep, keep));
    denom *= item.denom;
  }
  return [new Extent(states, denom), cost + states * keep];
}
