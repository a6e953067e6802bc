/**
 * JSON for every value of the runtime: `toData` and `dumps`, in the format of
 * the Python runtime's rulebook.json, so both languages write the same text:
 *
 * - a record (a result, a row, an event) is an object keyed by its field
 *   names as the rules data names them (snake_case), every field present
 *   (null is null, never left out);
 * - a label is its label string;
 * - dice are {"notation": "2d6x10", "count": 2, "sides": 6, "modifier": 0,
 *   "multiplier": 10, "unit": null};
 * - an exact fraction is an "n/d" string ("3" when whole);
 * - a mapping (a plain object keyed by label, or a Map) is an object keyed by
 *   its keys as strings (an array, the odds of fields together, by its JSON
 *   text as Python writes it: "[3, true]");
 * - an array is an array.
 *
 * Keys are data: every object `toData` makes is as JSON.parse makes it, each
 * key an own property ("__proto__" and "constructor" too), and only a value's
 * own properties are read (nothing Object.prototype is given counts).
 *
 * What JSON cannot say is refused with RuleTypeError, as the Python runtime
 * refuses it: a value of no runtime type, a number that is NaN or infinite, a
 * value nested more than MAX_NESTING levels deep, and a Map two of whose keys
 * are written as one JSON key (1 and "1": no key is lost).
 *
 * `dumps(value)` writes what Python's `rulebook.json.dumps(value)` writes
 * (json.dumps's separators, its ASCII escapes, indent and sort_keys), a
 * fraction of any size digit for digit. `loads` reads JSON text back as that
 * plain data, and `fraction` a fraction's text as the fraction it was:
 * `fraction` of each chance of `loads(dumps(odds))` is that chance.
 */

import { Dice } from "./dice.js";
import { RuleInputError, RuleTypeError } from "./errors.js";
import {
  MAX_NESTING,
  fraction as exact,
  fractionText,
  isFraction,
  options,
  reprString,
  shown,
} from "./_support.js";

/** The key under which a record keeps its fields' names (JavaScript, Python). */
export const FIELDS = Symbol("rulebook.fields");

function toJSON() {
  return toData(this);
}

/**
 * A record's field names: pairs of (JavaScript name, name in the rules data),
 * in order, shared by every record of one type.
 */
export function shape(...fields) {
  return Object.freeze(fields.map((pair) => Object.freeze([...pair])));
}

/**
 * A frozen plain object of `values`, a record of `fields` (see `shape`): its
 * field names are kept out of sight (a symbol, and `toJSON` for
 * JSON.stringify, neither enumerable), and so are its `methods`, if any.
 */
export function record(fields, values, methods = undefined) {
  Object.defineProperty(values, FIELDS, { value: fields });
  Object.defineProperty(values, "toJSON", { value: toJSON });
  for (const [name, method] of Object.entries(methods ?? {})) {
    Object.defineProperty(values, name, { value: method });
  }
  return Object.freeze(values);
}

/** `value` as plain JSON-able data (see the module's doc for the format).
 * Throws RuleTypeError for a value that is not of the runtime. */
export function toData(value) {
  return deepGuarded(() => data(value, 0));
}

const TOO_DEEP = `a value nested more than ${MAX_NESTING} levels deep is not a value of the rules runtime`;

/** `read()`, a stack overflow (a value nested past what `data` counts, such
 * as a toDict's answer) the RuleTypeError of a value nested too deep. */
function deepGuarded(read) {
  try {
    return read();
  } catch (error) {
    if (error instanceof RangeError && /call stack/i.test(error.message)) {
      throw new RuleTypeError(TOO_DEEP);
    }
    throw error;
  }
}

function data(value, depth) {
  if (depth > MAX_NESTING) throw new RuleTypeError(TOO_DEEP);
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      if (Number.isFinite(value)) return value;
      throw new RuleTypeError(
        `${floatText(value)} is not a value of the rules runtime: JSON has no NaN or infinity`,
      );
    case "object":
      return objectData(value, depth);
    default:
      break;
  }
  throw new RuleTypeError(`${shownType(value)} is not a value of the rules runtime`);
}

function shownType(value) {
  if (value === null || typeof value !== "object") return `a ${typeof value}`;
  return Object.getPrototypeOf(value)?.constructor?.name || "an object";
}

function objectData(value, depth) {
  const inner = (v) => data(v, depth + 1);
  if (isFraction(value)) return fractionText(value);
  if (value instanceof Dice) return value.toDict();
  if (Object.hasOwn(value, FIELDS)) {
    return Object.fromEntries(value[FIELDS].map(([js, py]) => [py, inner(value[js])]));
  }
  if (Array.isArray(value)) return value.map(inner);
  const proto = Object.getPrototypeOf(value);
  if (proto === Object.prototype || proto === null) {
    // in the order written (a toDict's answer may keep its own: ORDER)
    const keys = Object.hasOwn(value, ORDER) ? value[ORDER] : Object.keys(value);
    return ordered(keys.map((k) => [k, inner(value[k])]));
  }
  const toDict = classMethod(value, "toDict");
  if (toDict !== undefined) return data(toDict.call(value), depth); // JSON data, checked
  if (value instanceof Map) {
    const entries = [];
    const seen = new Set();
    for (const [k, v] of value) {
      const name = key(k); // in order: its key, then its value
      if (seen.has(name)) {
        throw new RuleTypeError(
          `two keys of one mapping are both written as the JSON key ${reprString(name)}`,
        );
      }
      seen.add(name);
      entries.push([name, inner(v)]);
    }
    return ordered(entries);
  }
  throw new RuleTypeError(`${shownType(value)} is not a value of the rules runtime`);
}

/** Where an object's keys are not in the order JavaScript enumerates them (a
 * Map keyed -1, 0, 1 becomes an object whose integer keys come first). */
const ORDER = Symbol("rulebook.order");

/** An object of `entries`; `dumps` writes its keys in their order here, as
 * Python's json.dumps writes a dict's, even where JavaScript would reorder
 * them (integer keys first). */
function ordered(entries) {
  const found = Object.fromEntries(entries);
  const keys = [...new Set(entries.map(([k]) => k))];
  const own = Object.keys(found);
  if (keys.some((k, i) => own[i] !== k)) Object.defineProperty(found, ORDER, { value: keys });
  return found;
}

/** The method `name` of `value`'s class (its prototypes below Object.prototype,
 * never Object.prototype's), or undefined. */
function classMethod(value, name) {
  for (let p = Object.getPrototypeOf(value); p !== null && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    const found = Object.getOwnPropertyDescriptor(p, name);
    if (found !== undefined) return typeof found.value === "function" ? found.value : undefined;
  }
  return undefined;
}

function key(k) {
  if (typeof k === "string") return k;
  if (typeof k === "boolean") return k ? "true" : "false";
  if (typeof k === "number" && Number.isInteger(k)) return String(k);
  if (isFraction(k)) return fractionText(k);
  if (Array.isArray(k)) {
    // an answer of fields together: its JSON text, as Python writes it
    return encode(data(k, 0), { indent: null, sortKeys: false, ensureAscii: true, item: ", ", key: ": " }, 0);
  }
  throw new RuleTypeError(`${shownType(k)} key is not a key of the rules runtime`);
}

// -- writing JSON text as Python's json.dumps does -----------------------------------

const SHORT = new Map([
  ['"', '\\"'], ["\\", "\\\\"], ["\n", "\\n"], ["\r", "\\r"], ["\t", "\\t"], ["\b", "\\b"], ["\f", "\\f"],
]);

function unicodeEscape(code) {
  return "\\u" + code.toString(16).padStart(4, "0");
}

function encodeString(text, ensureAscii) {
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    const code = text.charCodeAt(i);
    const short = SHORT.get(ch);
    if (short !== undefined) out += short;
    else if (code < 0x20) out += unicodeEscape(code);
    else if (ensureAscii && code > 0x7e) out += unicodeEscape(code);
    else out += ch;
  }
  return out + '"';
}

function floatText(value) {
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "Infinity";
  if (value === -Infinity) return "-Infinity";
  if (Number.isInteger(value)) return BigInt(value).toString();
  // Python's repr: the shortest digits, fixed from 1e-4 up to 1e16, else exponent.
  const [digits, exp] = value.toExponential().split("e");
  const e = Number(exp);
  if (e >= -4 && e < 16) return String(value);
  const sign = e < 0 ? "-" : "+";
  return `${digits}e${sign}${String(Math.abs(e)).padStart(2, "0")}`;
}

function byCodePoint(a, b) {
  const x = [...a[0]].map((c) => c.codePointAt(0));
  const y = [...b[0]].map((c) => c.codePointAt(0));
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return x[i] - y[i];
  }
  return x.length - y.length;
}

function encode(value, opts, depth) {
  if (value === null) return "null";
  if (value === true) return "true";
  if (value === false) return "false";
  if (typeof value === "number") return floatText(value);
  if (typeof value === "string") return encodeString(value, opts.ensureAscii);
  const inner = opts.indent === null ? "" : "\n" + opts.indent.repeat(depth + 1);
  const outer = opts.indent === null ? "" : "\n" + opts.indent.repeat(depth);
  if (Array.isArray(value)) {
    if (!value.length) return "[]";
    const items = value.map((v) => encode(v, opts, depth + 1));
    return `[${inner}${items.join(opts.item + inner)}${outer}]`;
  }
  let entries = Object.hasOwn(value, ORDER)
    ? value[ORDER].map((k) => [k, value[k]])
    : Object.entries(value);
  if (!entries.length) return "{}";
  if (opts.sortKeys) entries = entries.sort(byCodePoint);
  const items = entries.map(
    ([k, v]) => encodeString(k, opts.ensureAscii) + opts.key + encode(v, opts, depth + 1),
  );
  return `{${inner}${items.join(opts.item + inner)}${outer}}`;
}

/**
 * `value` as JSON text, as Python's `rulebook.json.dumps(value, **options)`
 * writes it: `indent` (a number of spaces or a string), `sortKeys`,
 * `ensureAscii` (true by default, as in Python); any other option is a
 * TypeError, as json.dumps refuses an unknown keyword.
 */
export function dumps(value, given = undefined) {
  const {
    indent = null,
    sortKeys = false,
    ensureAscii = true,
  } = options(given, ["indent", "sortKeys", "ensureAscii"], "dumps");
  const pad = indent === null ? null : typeof indent === "number" ? " ".repeat(indent) : indent;
  const opts = {
    indent: pad,
    sortKeys,
    ensureAscii,
    item: pad === null ? ", " : ",",
    key: ": ",
  };
  return deepGuarded(() => encode(data(value, 0), opts, 0));
}

const WHOLE = /^-?[0-9]+$/;

/**
 * The exact fraction (a {numerator, denominator} of bigints) a fraction's JSON
 * text ("n/d", or "n" when whole) writes, however many digits it has; throws
 * RuleInputError for anything else.
 */
export function fraction(text) {
  if (typeof text === "string") {
    const [top, bottom, ...rest] = text.split("/");
    if (!rest.length && WHOLE.test(top) && (bottom === undefined || WHOLE.test(bottom))) {
      const denominator = bottom === undefined ? 1n : BigInt(bottom);
      if (denominator !== 0n) return exact(BigInt(top), denominator);
    }
  }
  throw new RuleInputError(`a fraction is text 'n/d' or 'n', not ${shown(text)}`);
}

/** JSON text (`dumps`'s, or any) as plain data: JSON.parse, or RuleInputError
 * for text that is not JSON. */
export function loads(text) {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new RuleInputError(`not JSON text: ${error.name} raised`);
  }
}
