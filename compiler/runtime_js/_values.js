/**
 * Values: arguments of any type checked (lists, records, texts), a list's
 * item by its position, the highest of a list, and a state changed as a value
 * (the JavaScript twin of the Python runtime's _values.py; its messages are
 * the same).
 *
 * Arguments. A parameter that is a list, a record or a text is checked by its
 * spec, which answers the value as the rule reads it or throws a
 * RuleInputError naming the parameter (`saves[2]`, `attacker.bonus`): a list
 * (an array) as a frozen array of its checked items, between a least and a
 * most of them; a record as a frozen record of its type (given as one, or as
 * an object of its fields by their names here or in the rules); a text as a
 * string; a whole number, a flag and a label as every function checks its own.
 *
 * A state held as a value (a field of another state, a value a loop
 * carries) is changed by `changed`, which answers a changed copy: a state is
 * a value, never shared.
 */

import { RuleInputError } from "./errors.js";
import { record } from "./json.js";
import { badBool, badInt, choice, isInt, own, shown } from "./_support.js";

/** A whole number within `lo` and `hi` (null: no limit that way). */
export function int(lo, hi) {
  return (value, name) => {
    if (!isInt(value) || (lo !== null && value < lo) || (hi !== null && value > hi)) {
      throw badInt(value, name, lo, hi);
    }
    return value;
  };
}

/** A flag. */
export function bool() {
  return (value, name) => {
    if (typeof value !== "boolean") throw badBool(value, name);
    return value;
  };
}

/** A text. */
export function text() {
  return (value, name) => {
    if (typeof value !== "string") {
      throw new RuleInputError(`${name} must be a text, not ${shown(value)}`);
    }
    return value;
  };
}

/** A label of the set `kind` (in any case). */
export function label(kind) {
  return (value, name) => choice(kind, value, name);
}

/** A value of `inner`'s type, or null. */
export function maybe(inner) {
  return (value, name) => (value === null ? null : inner(value, name));
}

/** A state of the class `kind` (a copy of it: a state is a value). */
export function stateOf(kind) {
  return (value, name) => {
    if (!(value instanceof kind)) {
      throw new RuleInputError(`${name} must be a state ${kind.name}`);
    }
    return value.$copy();
  };
}

/** A list of `item`s, between `lo` and `hi` of them (null: no most). */
export function listed(item, lo, hi) {
  return (value, name) => {
    if (!Array.isArray(value)) {
      throw new RuleInputError(`${name} must be a list, not ${shown(value)}`);
    }
    const count = value.length;
    if (count < lo || (hi !== null && count > hi)) {
      const most = hi === null ? "" : String(hi);
      throw new RuleInputError(`${name} must hold ${lo}..${most} items, not ${count}`);
    }
    return Object.freeze(value.map((v, i) => item(v, `${name}[${i}]`)));
  };
}

/**
 * A record of the type whose object shape is `shape`: an object of its fields
 * (each by its name here, or else by its name in the rules: `specs()` answers
 * [name in the rules, name here, spec] for each, when first asked for).
 */
export function fields(shape, specs) {
  let known = null; // made when first asked for: records may hold each other
  return (value, name) => {
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      throw new RuleInputError(`${name} must be a record of its fields, not ${shown(value)}`);
    }
    known ??= specs();
    const made = {};
    for (const [key, js, spec] of known) {
      let given;
      if (Object.hasOwn(value, js)) given = own(value, js);
      else if (Object.hasOwn(value, key)) given = own(value, key);
      else throw new RuleInputError(`${name} has no field ${shown(key)}`);
      made[js] = spec(given, `${name}.${key}`);
    }
    return record(shape, made);
  };
}

/** The item at position `at` (from 0; negative: from the end), or a
 * RuleInputError where the list has none there. */
export function item(items, at) {
  if (at < -items.length || at >= items.length) {
    throw new RuleInputError(`a list of ${items.length} items has no item ${at}`);
  }
  return at < 0 ? items[items.length + at] : items[at];
}

/** The highest item (by `key`: the first of those), or a RuleInputError for
 * an empty list. */
export function most(items, key = (x) => x) {
  if (!items.length) throw new RuleInputError("the highest of an empty list has no value");
  return best(items, key, (a, b) => a > b);
}

/** The lowest item (by `key`: the first of those), or a RuleInputError for an
 * empty list. */
export function least(items, key = (x) => x) {
  if (!items.length) throw new RuleInputError("the lowest of an empty list has no value");
  return best(items, key, (a, b) => a < b);
}

function best(items, key, better) {
  let found = items[0];
  let value = key(found);
  for (const candidate of items.slice(1)) {
    const v = key(candidate);
    if (better(v, value)) [found, value] = [candidate, v];
  }
  return found;
}

/** The records of `items` by the whole number `key` reads, lowest first
 * (equal ones in their order). */
export function sortedBy(items, key) {
  return [...items].sort((a, b) => key(a) - key(b));
}

/** Whether two values of the rules are equal: records field by field, lists
 * item by item, states by their fields, anything else as `===`. */
export function equal(a, b) {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") {
    return false;
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((x, i) => equal(x, b[i]))
    );
  }
  if (typeof a.equals === "function") return a.equals(b);
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every((k) => Object.hasOwn(b, k) && equal(a[k], b[k]))
  );
}

/** A copy of `state` after `change` (a transition called on it): `state`
 * itself does not change. */
export function changed(state, change) {
  const after = state.$copy();
  change(after);
  return after;
}

/** A copy of a state a value holds, to hand out (a change to it changes
 * nothing that holds it). */
export function held(state) {
  return state.$copy();
}
