/**
 * Dice tree: the nodes of a dice expression above its pools (the JavaScript
 * twin of the Python runtime's dice_tree.py), and its exact values.
 *
 * A `Node` is a `Pool`, a whole number, an exact fraction, a `DiceSum` (a sum
 * in parentheses), a `Binary` (`*`, `/`), a `Call` (`floor`, `ceil`, `round`,
 * `abs`, `max`, `min`), a `Group` (`{a, b}kh1`), a `Test` (a comparison of
 * totals: 1 when it holds, else 0) or a `Labeled` node (`1d20[STR]`: shown
 * only).
 *
 * A value (`Num`) is exact: a `number` (a safe integer) when whole, else a
 * frozen fraction `{numerator, denominator}` of bigints in lowest terms, the
 * denominator positive and not 1 (./_support.js's `fraction`; `String()` and
 * JSON write it "7/2", as the Python runtime writes a Fraction). The
 * arithmetic below keeps that form; a whole value past
 * Number.MAX_SAFE_INTEGER is refused, never rounded.
 */

import * as spec from "./_dice_spec.js";
import {
  COMPARISONS,
  DiceSum,
  KEEPS,
  Value,
  conditionText,
  isCondition,
  isNode,
  nodeOf,
  numberText,
  written,
} from "./dice_terms.js";
import { RuleInputError } from "./errors.js";
import { fraction, isFraction, options, shown } from "./_support.js";

// -- exact values -------------------------------------------------------------------

function big(value) {
  return isFraction(value) ? value : fraction(BigInt(value));
}

/** The value of the fraction `f`: a number when whole (refused past the safe integers). */
export function normal(f) {
  if (f.denominator !== 1n) return f;
  const n = Number(f.numerator);
  if (!Number.isSafeInteger(n)) {
    throw new RuleInputError(
      "a value passes Number.MAX_SAFE_INTEGER (2**53 - 1), the largest integer " +
        "JavaScript holds exactly (a limit of the runtime, not of the rules)",
    );
  }
  return n;
}

/** a + b, exactly. */
export function plus(a, b) {
  if (typeof a === "number" && typeof b === "number") return normal(fraction(BigInt(a) + BigInt(b)));
  const [x, y] = [big(a), big(b)];
  return normal(fraction(x.numerator * y.denominator + y.numerator * x.denominator, x.denominator * y.denominator));
}

/** -a. */
export function negated(a) {
  return typeof a === "number" ? (a === 0 ? 0 : -a) : fraction(-a.numerator, a.denominator);
}

/** a * b, exactly. */
export function times(a, b) {
  const [x, y] = [big(a), big(b)];
  return normal(fraction(x.numerator * y.numerator, x.denominator * y.denominator));
}

/** a / b, exactly; RuleInputError "division by zero" when b is 0. */
export function divided(a, b) {
  const [x, y] = [big(a), big(b)];
  if (y.numerator === 0n) throw new RuleInputError("division by zero");
  return normal(fraction(x.numerator * y.denominator, x.denominator * y.numerator));
}

/** -1, 0 or 1 as a is below, equal to or above b. */
export function order(a, b) {
  const [x, y] = [big(a), big(b)];
  const left = x.numerator * y.denominator;
  const right = y.numerator * x.denominator;
  return left < right ? -1 : left > right ? 1 : 0;
}

function floorBig(f) {
  const q = f.numerator / f.denominator;
  return f.numerator < 0n && q * f.denominator !== f.numerator ? q - 1n : q;
}

const HALF = fraction(1n, 2n);

/** The functions of the notation, each of its values: floor, ceil, round
 * (half up: floor(x + 1/2)), abs, max and min. */
export const FUNCTIONS = Object.freeze({
  floor: (a) => normal(fraction(floorBig(big(a)))),
  ceil: (a) => negated(normal(fraction(floorBig(big(negated(a)))))),
  round: (a) => normal(fraction(floorBig(big(plus(a, HALF))))),
  abs: (a) => (order(a, 0) < 0 ? negated(a) : a),
  max: (...values) => values.reduce((a, b) => (order(b, a) > 0 ? b : a)),
  min: (...values) => values.reduce((a, b) => (order(b, a) < 0 ? b : a)),
});

/** Whether `left op right` holds (`op` one of COMPARISONS). */
export function holds(op, left, right) {
  const o = order(left, right);
  return { ">=": o >= 0, "<=": o <= 0, ">": o > 0, "<": o < 0, "=": o === 0 }[op];
}

// -- the nodes ----------------------------------------------------------------------

function node(what, value) {
  if (!isNode(value)) throw new RuleInputError(`${what} is a node of a dice expression, not ${shown(value)}`);
  return nodeOf(value);
}

/** A node written where a whole expression may stand (an argument, an item). */
function expr(value) {
  return value instanceof DiceSum ? String(value) : written(value, 0);
}

/** A side of a comparison of totals: a sum, or anything tighter. */
function side(value) {
  return value instanceof DiceSum ? String(value) : written(value, 1);
}

/** `left * right` or `left / right` (exact: a fraction when not whole). */
export class Binary extends Value {
  static FIELDS = Object.freeze([["op", "op"], ["left", "left"], ["right", "right"]]);
  static PRECEDENCE = 2;

  constructor(op, left, right) {
    super();
    if (op !== "*" && op !== "/") throw new RuleInputError(`a Binary's op is '*' or '/', not ${shown(op)}`);
    this.op = op;
    this.left = node("a Binary's left", left);
    this.right = node("a Binary's right", right);
    Object.freeze(this);
  }

  children() {
    return [this.left, this.right];
  }

  toString() {
    return `${written(this.left, 2)}${this.op}${written(this.right, 3)}`;
  }
}

/** Each function's least and most arguments (null: no most). */
export const CALLS = Object.freeze({
  floor: Object.freeze([1, 1]),
  ceil: Object.freeze([1, 1]),
  round: Object.freeze([1, 1]),
  abs: Object.freeze([1, 1]),
  max: Object.freeze([2, null]),
  min: Object.freeze([2, null]),
});

/** Python's repr of a tuple of strings. */
function tuple(items) {
  return `(${items.map((i) => `'${i}'`).join(", ")})`;
}

/** A function of its arguments' totals: `floor(2d6/2)`, `max(1d6, 1d8)`. */
export class Call extends Value {
  static FIELDS = Object.freeze([["name", "name"], ["args", "args"]]);
  static PRECEDENCE = 3;

  constructor(name, args) {
    super();
    if (typeof name !== "string" || !Object.hasOwn(CALLS, name)) {
      throw new RuleInputError(`a Call's name is one of ${tuple(Object.keys(CALLS))}, not ${shown(name)}`);
    }
    const found = Object.freeze([...args].map((a) => node(`an argument of ${name}`, a)));
    const [least, most] = CALLS[name];
    if (found.length < least || (most !== null && found.length > most)) {
      const many = most === least ? `${least}` : `${least} or more`;
      throw new RuleInputError(`${name} takes ${many} arguments, not ${found.length}`);
    }
    this.name = name;
    this.args = found;
    Object.freeze(this);
  }

  children() {
    return this.args;
  }

  toString() {
    return `${this.name}(${this.args.map(expr).join(",")})`;
  }
}

/**
 * Expressions rolled together: with no option, the sum of their totals;
 * `keep`/`keepCount` keep or drop item totals (ties: the first written ranks
 * first); `target` counts the items whose total meets it, less those meeting
 * `failure`.
 */
export class Group extends Value {
  static FIELDS = Object.freeze([
    ["items", "items"],
    ["keep", "keep"],
    ["keepCount", "keep_count"],
    ["target", "target"],
    ["failure", "failure"],
  ]);
  static PRECEDENCE = 3;

  constructor(items, given = undefined) {
    super();
    const found = options(given, ["keep", "keepCount", "target", "failure"], "Group");
    this.items = Object.freeze([...items].map((i) => node("a group's item", i)));
    this.keep = found.keep ?? null;
    this.keepCount = found.keepCount ?? 0;
    this.target = found.target ?? null;
    this.failure = found.failure ?? null;
    const problem = this.problem();
    if (problem !== null) throw new RuleInputError(`${this}: ${problem}`);
    Object.freeze(this);
  }

  /** Why the group cannot be rolled, or null. */
  problem() {
    if (!this.items.length) return "a group has one item or more";
    if (this.keep !== null && !KEEPS.includes(this.keep)) return `keep is one of ${tuple(KEEPS)}`;
    if (!Number.isSafeInteger(this.keepCount) || (this.keep === null) !== (this.keepCount === 0)) {
      return "keep and keep_count go together (keep_count 1 or more)";
    }
    if (this.keepCount < 0) return "keep_count must be 0 or more";
    if (this.keep !== null && this.items.length === 1) return spec.CHECKS.group_keep_one;
    for (const name of ["target", "failure"]) {
      if (this[name] !== null && !isCondition(this[name])) return `${name} must be a Compare or an AnyOf`;
    }
    if (this.failure !== null && this.target === null) return spec.CHECKS.failure_needs_target;
    return null;
  }

  /** How many items the group keeps. */
  get kept() {
    const n = this.items.length;
    if (this.keep === null) return n;
    if (this.keep === "kh" || this.keep === "kl") return Math.min(this.keepCount, n);
    return Math.max(n - this.keepCount, 0);
  }

  children() {
    return this.items;
  }

  toString() {
    let text = `{${this.items.map(expr).join(",")}}`;
    if (this.keep !== null) text += `${this.keep}${this.keepCount}`;
    if (this.target !== null) text += conditionText(this.target, "");
    if (this.failure !== null) text += conditionText(this.failure, "f");
    return text;
  }
}

/** 1 when `left op right` holds of the two totals, else 0 (`3d6 >= 10`). */
export class Test extends Value {
  static FIELDS = Object.freeze([["op", "op"], ["left", "left"], ["right", "right"]]);
  static PRECEDENCE = 0;

  constructor(op, left, right) {
    super();
    if (!COMPARISONS.includes(op)) {
      throw new RuleInputError(`a comparison is one of ${tuple(COMPARISONS)}, not ${shown(op)}`);
    }
    this.op = op;
    this.left = node("a Test's left", left);
    this.right = node("a Test's right", right);
    Object.freeze(this);
  }

  /** Whether the comparison holds of these totals. */
  holds(left, right) {
    return holds(this.op, left, right);
  }

  children() {
    return [this.left, this.right];
  }

  toString() {
    return `${side(this.left)} ${this.op} ${side(this.right)}`;
  }
}

/** A node shown with a label (`1d20+5[STR]`): its value is the node's. */
export class Labeled extends Value {
  static FIELDS = Object.freeze([["node", "node"], ["label", "label"]]);
  static PRECEDENCE = 3;

  constructor(inner, label) {
    super();
    if (typeof label !== "string" || /[\]\n\r]/.test(label)) {
      throw new RuleInputError(`a label is a str with no ']' and no line break, not ${shown(label)}`);
    }
    this.node = node("a Labeled's node", inner);
    this.label = label;
    Object.freeze(this);
  }

  children() {
    return [this.node];
  }

  toString() {
    const shown = this.node instanceof Labeled ? `(${this.node})` : written(this.node, 3);
    return `${shown}[${this.label}]`;
  }
}
