/**
 * Support for the generated rule modules: argument checks, labels, integers
 * and the runtime's limit (the JavaScript twin of the Python runtime's
 * _support.py; its messages are the same, in the JavaScript names).
 *
 * Labels. A set of labels is a frozen object of its members
 * (`Size.LARGE === "Large"`); every function that takes a choice accepts
 * any string whose case-folded value (CPython's str.casefold) is a label's,
 * and answers with the label as the rules write it.
 *
 * Integers. Every integer is a `number`; an argument past
 * Number.MAX_SAFE_INTEGER (where a number stops being an exact integer) is
 * refused, and so is an answer that would pass it.
 *
 * The limits. No call of the runtime produces more than MAX_ENTRIES entries
 * (list items, events, die rolls, calls of rules by rules), nor takes more
 * than MAX_WORK steps working out exact odds: engineering limits of the
 * runtime, not figures of any rules. `CALL` keeps the count of the outermost
 * call under way (`enterCall`, `leaveCall` around a generated function that
 * calls another rule, is called by one, or works out odds); each function of
 * the odds engine `spend`s its steps before it takes them.
 */

import * as spec from "./_dice_spec.js";
import { RuleInputError } from "./errors.js";
import { say } from "./_messages.js";
import { fold } from "./_fold.js";

export const MAX_ENTRIES = 100_000;

/** The most levels of arrays and objects one within another json.js writes
 * (a value nested deeper is refused, as in Python). */
export const MAX_NESTING = 100;

/**
 * How many ways each sum of `count` dice of `sides` faces (1 to `sides`) can
 * come up (index i: the sum count + i), as bigints: each die adds a sliding
 * window of `sides` to the counts so far (a difference of prefix sums).
 */
export function countSums(count, sides) {
  let ways = [1n];
  for (let d = 0; d < count; d++) {
    const width = ways.length;
    const prefix = new Array(width + 1);
    prefix[0] = 0n;
    for (let i = 0; i < width; i++) prefix[i + 1] = prefix[i] + ways[i];
    const next = new Array(width + sides - 1);
    for (let t = 0; t < width + sides - 1; t++) {
      next[t] = prefix[Math.min(t + 1, width)] - prefix[Math.max(t + 1 - sides, 0)];
    }
    ways = next;
  }
  return ways;
}

/** `n` with thousands separators, as Python's `f"{n:,}"` writes it. */
export function grouped(n) {
  const text = String(Math.abs(n));
  const parts = [];
  for (let end = text.length; end > 0; end -= 3) {
    parts.unshift(text.slice(Math.max(0, end - 3), end));
  }
  return (n < 0 ? "-" : "") + parts.join(",");
}

export const LIMIT_NOTE =
  `one call makes at most ${grouped(MAX_ENTRIES)} entries ` +
  "(a limit of the runtime, not of the rules)";

const SAFE_NOTE =
  "JavaScript numbers are exact integers only up to Number.MAX_SAFE_INTEGER";

/** The case-folded value of a string (null for anything else). */
export function folded(value) {
  return typeof value === "string" ? fold(value) : null;
}

// -- showing values in messages, as Python's repr() shows them ---------------

const NOT_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

function hex(code, width) {
  return code.toString(16).padStart(width, "0");
}

/** A string as Python's repr() writes it: `'Large'`, `"it's"`. */
export function reprString(text) {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    const code = ch.codePointAt(0);
    if (ch === quote || ch === "\\") out += "\\" + ch;
    else if (ch === "\t") out += "\\t";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (code < 0x20 || code === 0x7f) out += "\\x" + hex(code, 2);
    else if (code < 0x7f || ch === " " || !NOT_PRINTABLE.test(ch)) out += ch;
    else if (code <= 0xff) out += "\\x" + hex(code, 2);
    else if (code <= 0xffff) out += "\\u" + hex(code, 4);
    else out += "\\U" + hex(code, 8);
  }
  return out + quote;
}

/** A value for an error message, never throwing: strings as Python's repr()
 * writes them, numbers, true, false, null, undefined, arrays, objects. */
export function shown(value) {
  try {
    return show(value, 0);
  } catch {
    return "<a value>";
  }
}

function show(value, depth) {
  switch (typeof value) {
    case "string":
      return reprString(value);
    case "number":
      return Number.isInteger(value) && !Number.isSafeInteger(value)
        ? BigInt(value).toString()
        : String(value);
    case "bigint":
      return `${value}n`;
    case "boolean":
    case "undefined":
      return String(value);
    case "symbol":
      return value.toString();
    case "function":
      return `<a function ${value.name || "(anonymous)"}>`;
    default:
      break;
  }
  if (value === null) return "null";
  if (depth > 2) return "...";
  if (Array.isArray(value)) {
    return `[${value.map((v) => show(v, depth + 1)).join(", ")}]`;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto === Object.prototype || proto === null) {
    const items = Object.entries(value).map(
      ([k, v]) => `${reprString(k)}: ${show(v, depth + 1)}`,
    );
    return `{${items.join(", ")}}`;
  }
  const name = proto?.constructor?.name;
  return `<a ${typeof name === "string" && name ? name : "value"}>`;
}

// -- integers -------------------------------------------------------------------

/** Whether `value` is an integer the runtime takes: a safe integer number. */
export function isInt(value) {
  return Number.isSafeInteger(value);
}

/** The error for an argument that is not an integer within `lo..hi`. */
export function badInt(value, name, lo, hi) {
  const low = lo === null ? "" : String(lo);
  const high = hi === null ? "" : String(hi);
  if (typeof value === "number" && Number.isInteger(value)) {
    if (!Number.isSafeInteger(value)) {
      const least = lo === null ? -Number.MAX_SAFE_INTEGER : lo;
      const most = hi === null ? Number.MAX_SAFE_INTEGER : hi;
      return new RuleInputError(
        say("outside_because", { name, low: least, high: most, value: shown(value), note: SAFE_NOTE }),
      );
    }
    return new RuleInputError(say("outside", { name, low, high, value }));
  }
  return new RuleInputError(say("not_int", { name, value: shown(value) }));
}

/** The error for an integer argument within its range that is not one of the
 * `values` its parameter takes. */
export function notOneOf(value, name, values) {
  return new RuleInputError(say("not_one_of", { name, values: values.join(", "), value }));
}

/** The error for an integer argument that would make a call pass MAX_ENTRIES. */
export function pastLimit(value, name, lo, hi) {
  return new RuleInputError(
    say("outside_because", { name, low: lo, high: hi, value, note: LIMIT_NOTE }),
  );
}

/** The error for a call that would make more than MAX_ENTRIES `what`. */
export function tooMany(what) {
  return new RuleInputError(
    `the call would make more than ${grouped(MAX_ENTRIES)} ${what}: ${LIMIT_NOTE}`,
  );
}

/** The most steps one call takes working out exact odds (about: values x
 * values combined, each step weighed by the size of the numbers it works on:
 * see `weighed`). */
export const MAX_WORK = spec.ODDS_WORK_PER_ENTRY * MAX_ENTRIES;

const WORK_NOTE =
  `the exact odds take more than ${grouped(MAX_WORK)} steps to work out ` +
  "(a limit of the runtime, not of the rules)";

/** The outermost call of the runtime under way: how many calls of rules it
 * has made inside it, and the steps of odds work it has taken (a bigint),
 * both counted from naught at each outermost call. */
export const CALL = { depth: 0, calls: 0, work: 0n };

/** A call of a rule begins: counted (and refused past MAX_ENTRIES) when
 * another call is under way, else the start of a new count. */
export function enterCall() {
  if (CALL.depth) {
    if (CALL.calls >= MAX_ENTRIES) throw tooMany("calls of rules");
    CALL.calls += 1;
  } else {
    CALL.calls = 0;
    CALL.work = 0n;
  }
  CALL.depth += 1;
}

/** A call of a rule ends (however it ends). */
export function leaveCall() {
  CALL.depth -= 1;
}

/** The bits of a whole number (a bigint at least 0), as Python's int.bit_length. */
export function bitLength(n) {
  return n === 0n ? 0 : n.toString(2).length;
}

/** `steps` (a bigint) that each multiply (or, not `products`, add) whole
 * numbers of up to `bits` bits, as steps of small numbers: as the Python
 * runtime's `weighed`, a bigint. */
export function weighed(steps, bits, products = true) {
  const b = BigInt(bits); // the figures: the dice spec's work budget
  if (!products) return steps * (1n + b / BigInt(spec.SUM_BITS));
  return steps * (1n + b / BigInt(spec.PRODUCT_BITS) + (b / BigInt(spec.SQUARE_BITS)) ** 2n);
}

/** Count `steps` (a bigint or an integer) of odds work before taking them:
 * refused with RuleInputError where they would bring the call past MAX_WORK
 * (the outermost call's steps so far counted in, when one is under way). */
export function spend(steps, hint = "") {
  const work = BigInt(steps) + (CALL.depth ? CALL.work : 0n);
  if (work > BigInt(MAX_WORK)) throw new RuleInputError(WORK_NOTE + hint);
  if (CALL.depth) CALL.work = work;
}

/** The error for an argument that is not a boolean. */
export function badBool(value, name) {
  return new RuleInputError(
    say("not_flag", { name, true: "true", false: "false", value: shown(value) }),
  );
}

/** `value`, an integer an answer is made of, if it is exact; else an error. */
export function exact(value) {
  if (Number.isSafeInteger(value)) return value + 0; // never -0
  throw new RuleInputError(
    `the answer would pass Number.MAX_SAFE_INTEGER: ${SAFE_NOTE}`,
  );
}

/** `a // b` rounded down (Python's floor division), exact for safe integers. */
export function floorDiv(a, b) {
  const r = a % b;
  const q = (a - r) / b;
  return (r !== 0 && r < 0 !== b < 0 ? q - 1 : q) + 0; // never -0
}

/** `a / b` rounded up, exact for safe integers. */
export function ceilDiv(a, b) {
  return 0 - floorDiv(0 - a, b);
}

/** `a / b` rounded half up (`floor(a / b + 1/2)`), exact for safe integers. */
export function roundDiv(a, b) {
  const [n, d] = b < 0 ? [0 - a, 0 - b] : [a, b];
  const q = floorDiv(n, d);
  return (2 * (n - q * d) >= d ? q + 1 : q) + 0; // never -0
}

/** `a + b`: two texts joined, or two integers added (exact, or an error). */
export function add(a, b) {
  const result = a + b;
  return typeof result === "string" ? result : exact(result);
}

/** The sum of a list of integers, exact or an error. */
export function sum(values) {
  let total = 0;
  for (const value of values) total = exact(total + value);
  return total;
}

/** `body(key)`, or null when `key` is null: a lookup by a key that may be null. */
export function unlessNull(key, body) {
  return key === null ? null : body(key);
}

// -- labels ----------------------------------------------------------------------

const LABELS = new WeakMap();

/**
 * A frozen object of labels by member name, with a non-enumerable `of(value)`;
 * `ordered` labels (a ladder, lowest first) also have a non-enumerable
 * `compare(a, b)`.
 */
export function labels(name, members, ordered = false) {
  const list = Object.values(members);
  const byFolded = new Map(list.map((label) => [fold(label), label]));
  const rank = new Map(list.map((label, index) => [label, index]));
  const object = { ...members };
  const meta = { name, list, byFolded, rank, shown: list.map(reprString).join(", ") };
  // A value from outside (any string), checked: the label it names in any
  // case, spelt as the rules spell it, as Python's `Kind(text)` answers a member.
  Object.defineProperty(object, "of", {
    value: (value) => choice(object, value, `a label of ${name}`),
    enumerable: false,
  });
  if (ordered) {
    Object.defineProperty(object, "compare", {
      value: (a, b) => {
        const diff = rankOf(meta, a) - rankOf(meta, b);
        return diff < 0 ? -1 : diff > 0 ? 1 : 0;
      },
      enumerable: false,
    });
  }
  Object.freeze(object);
  LABELS.set(object, meta);
  return object;
}

function rankOf(meta, value) {
  const key = folded(value);
  const label = key === null ? undefined : meta.byFolded.get(key);
  if (label === undefined) {
    throw new RuleInputError(
      `cannot compare with ${shown(value)}: use one of ${meta.shown}`,
    );
  }
  return meta.rank.get(label);
}

function metaOf(kind) {
  const meta = LABELS.get(kind);
  if (meta === undefined) throw new TypeError("not a set of labels of the runtime");
  return meta;
}

/** The labels of a set, in order. */
export function labelsOf(kind) {
  return metaOf(kind).list;
}

/** The label `value` names (a label in any case), or a RuleInputError. */
export function choice(kind, value, name) {
  const meta = metaOf(kind);
  const key = folded(value);
  if (key !== null) {
    const label = meta.byFolded.get(key);
    if (label !== undefined) return label;
  }
  throw new RuleInputError(say("not_label", { name, labels: meta.shown, value: shown(value) }));
}

/**
 * A fresh object without a prototype (Python's dict, in JavaScript): its keys
 * are data, so a key such as "__proto__" or "constructor" is a key like any
 * other, and no key is read from Object.prototype.
 */
export function dict(entries = []) {
  const object = Object.create(null);
  for (const [key, value] of entries) object[key] = value;
  return object;
}

/** `object`'s own property `key`, or undefined (never an inherited one). */
export function own(object, key) {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

/** Whether `value` is a plain object: one made by `{...}` or `dict`. */
function isPlain(value) {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * A complete mapping argument: a plain object (its own properties) or a Map
 * from every key label to a value label, both in any case; answered as a
 * frozen object without a prototype (`dict`), keyed by the labels as the rules
 * write them. Two keys naming the same label are refused.
 */
export function mapping(keys, values, value, name) {
  const keyMeta = metaOf(keys);
  const valueMeta = metaOf(values);
  let entries;
  if (value instanceof Map) {
    entries = [...value.entries()];
  } else if (isPlain(value)) {
    entries = Object.entries(value);
  } else {
    throw new RuleInputError(
      say("not_mapping", { name, keys: keyMeta.name, values: valueMeta.name, value: shown(value) }),
    );
  }
  const result = new Map();
  const given = new Map();
  for (const [k, v] of entries) {
    const key = choice(keys, k, `a key of ${name}`);
    if (given.has(key)) {
      throw new RuleInputError(
        say("two_keys", { name, label: reprString(key), first: shown(given.get(key)), second: shown(k) }),
      );
    }
    given.set(key, k);
    result.set(key, choice(values, v, `${name}[${shown(k)}]`));
  }
  const missing = keyMeta.list.filter((label) => !given.has(label));
  if (missing.length) {
    throw new RuleInputError(say("no_value_for", { name, missing: missing.map(reprString).join(", ") }));
  }
  return Object.freeze(dict(keyMeta.list.map((label) => [label, result.get(label)])));
}

/**
 * The label `by` steps along `kind`'s ladder from `label` (negative: down).
 * Past either end: null for "none", the end label for "clamp", and a
 * RuleInputError for "error", as the rules declare.
 */
/** The rank of a label along its ordered enum `kind` (lowest first, from 0). */
export function rank(kind, label) {
  return metaOf(kind).rank.get(label);
}

export function step(kind, label, by, pastEnd) {
  if (label === null) return null;
  const meta = metaOf(kind);
  const at = meta.rank.get(label) + by;
  if (at >= 0 && at < meta.list.length) return meta.list[at];
  if (pastEnd === "clamp") return at < 0 ? meta.list[0] : meta.list[meta.list.length - 1];
  if (pastEnd === "error") {
    const steps = by >= 0 ? `+${by}` : String(by);
    throw new RuleInputError(
      `${reprString(label)} ${steps} steps is past the end of ${meta.name}`,
    );
  }
  return null;
}

// -- options (Python's keyword-only parameters) ------------------------------------

/**
 * The options object of a call: undefined or a plain object whose own keys are
 * among `names`; a TypeError otherwise (as Python refuses an unknown keyword).
 * Answered as a `dict` of the options given, so that no option is read from
 * Object.prototype (destructuring it with defaults reads only what was given).
 */
export function options(given, names, fn) {
  const found = dict();
  if (given === undefined) return found;
  if (!isPlain(given)) {
    throw new TypeError(`${fn}() takes its options as an object, not ${shown(given)}`);
  }
  for (const key of Object.keys(given)) {
    if (!names.includes(key)) {
      const known = names.length ? names.join(", ") : "none";
      throw new TypeError(`${fn}() has no option ${reprString(key)} (its options: ${known})`);
    }
    found[key] = given[key];
  }
  return found;
}

// -- exact fractions ----------------------------------------------------------------

/** The greatest common divisor of two bigints (0n for 0n and 0n). */
export function gcd(a, b) {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y) [x, y] = [y, x % y];
  return x;
}

function fractionJSON() {
  return fractionText(this);
}

/** The exact fraction n/d in lowest terms (a frozen {numerator, denominator}
 * of bigints, the denominator positive), as Python's Fraction(n, d). */
export function fraction(n, d = 1n) {
  let numerator = BigInt(n);
  let denominator = BigInt(d);
  if (denominator === 0n) throw new RangeError("a fraction's denominator is 0");
  if (denominator < 0n) {
    numerator = -numerator;
    denominator = -denominator;
  }
  const g = gcd(numerator, denominator) || 1n;
  const value = { numerator: numerator / g, denominator: denominator / g };
  Object.defineProperty(value, "toJSON", { value: fractionJSON });
  Object.defineProperty(value, "toString", { value: fractionJSON }); // "7/2"
  return Object.freeze(value);
}

/** Whether `value` is a fraction of the runtime. */
export function isFraction(value) {
  return (
    value !== null &&
    typeof value === "object" &&
    typeof own(value, "numerator") === "bigint" &&
    typeof own(value, "denominator") === "bigint"
  );
}

/** a + b, exactly. */
export function addFractions(a, b) {
  return fraction(
    a.numerator * b.denominator + b.numerator * a.denominator,
    a.denominator * b.denominator,
  );
}

/** a * b, exactly. */
export function mulFractions(a, b) {
  return fraction(a.numerator * b.numerator, a.denominator * b.denominator);
}

/** a / b, exactly. */
export function divFractions(a, b) {
  return fraction(a.numerator * b.denominator, a.denominator * b.numerator);
}

/** A fraction as Python's str(Fraction) writes it: "3/4", or "3" when whole. */
export function fractionText(value) {
  return value.denominator === 1n
    ? String(value.numerator)
    : `${value.numerator}/${value.denominator}`;
}
