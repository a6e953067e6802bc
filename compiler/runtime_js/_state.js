/**
 * States: a level on a ladder, moved by named transitions between a floor and
 * a ceiling; or a record of named fields, changed by transitions (the
 * JavaScript twin of the Python runtime's _state.py).
 */

import { RuleInputError } from "./errors.js";
import { shown } from "./_support.js";

/** What a generated state's constructor is given to make a copy (`$copy`):
 * its fields are then set by the copy, not from arguments. */
export const COPY = Symbol("rulebook.copy");

/** Whether two values of a state's fields are equal: lists item by item,
 * records field by field, states by their fields, anything else as `===`. */
function same(a, b) {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") {
    return false;
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => same(x, b[i]));
  }
  if (typeof a.equals === "function") return a.equals(b);
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && same(a[k], b[k]));
}

/**
 * One subject's level on a ladder of levels, each with an effect.
 *
 * Level 0 is none; the levels the rules list are 1, 2, ... up to the ceiling.
 * Effects are cumulative (every level's effect up to the current one) or not
 * (only the current level's). A generated subclass sets the static `$floor`,
 * `$ceiling`, `$levelEffects` and `$cumulative`, and names the transitions as
 * methods (moving with `$move(steps)` or `$set(level)`): `$` is in no name the
 * rules give, so no transition can hide them.
 */
export class LevelState {
  static $floor = 0;
  static $ceiling = 0;
  static $levelEffects = Object.freeze([]);
  static $cumulative = true;
  #level;

  constructor(level = null) {
    const kind = new.target;
    this.#level = LevelState.$checked(
      level === null ? kind.$floor : level,
      "level",
      kind.$floor,
      kind.$ceiling,
    );
  }

  /** `value`, an integer in lo..hi (hi null: no most), or a RuleInputError. */
  static $checked(value, name, lo, hi) {
    if (!Number.isSafeInteger(value) || value < lo || (hi !== null && value > hi)) {
      const most = hi === null ? " or more" : `..${hi}`;
      throw new RuleInputError(`${name} must be an int in ${lo}${most}, not ${shown(value)}`);
    }
    return value;
  }

  /** The current level (0: none). */
  get level() {
    return this.#level;
  }

  /** What the current level means, lowest level first. */
  get effects() {
    const kind = this.constructor;
    if (!this.#level) return Object.freeze([]);
    if (kind.$cumulative) return Object.freeze(kind.$levelEffects.slice(0, this.#level));
    return Object.freeze([kind.$levelEffects[this.#level - 1]]);
  }

  /** The state as plain JSON-able data: its level and what it means. */
  toDict() {
    return { level: this.#level, effects: [...this.effects] };
  }

  toJSON() {
    return this.toDict();
  }

  /** Move `steps` levels (negative: down), held between floor and ceiling. */
  $move(steps) {
    const kind = this.constructor;
    this.#level = Math.min(Math.max(this.#level + steps, kind.$floor), kind.$ceiling);
    return this.#level;
  }

  /** Go to `level` (checked by the caller). */
  $set(level) {
    this.#level = level;
    return level;
  }

  /** Whether `other` is a state of the same kind at the same level. */
  equals(other) {
    return other instanceof LevelState && other.constructor === this.constructor && other.level === this.#level;
  }

  toString() {
    return `${this.constructor.name}(level=${this.#level})`;
  }
}

/**
 * One subject's state as a record of named fields (numbers, flags, and values
 * of any type the rules declare; a generated subclass's `$copy()` answers a
 * copy, as a state held as a value is changed).
 *
 * A generated subclass lists its fields in the static `$fields`, each as
 * [its name in the rules, its name here], keeps each in a #private field, reads
 * it as a getter, and names the transitions as methods.
 */
export class RecordState {
  static $fields = Object.freeze([]);
  static $shown = Object.freeze([]);

  /**
   * The state as plain JSON-able data: each field by its name in the rules,
   * then the derived properties it shows (a list of texts as an array).
   */
  toDict() {
    const kind = this.constructor;
    return Object.fromEntries(
      [...kind.$fields, ...kind.$shown].map(([py, js]) => {
        const value = this[js];
        return [py, Array.isArray(value) ? [...value] : value];
      }),
    );
  }

  toJSON() {
    return this.toDict();
  }

  /** Whether `other` is a state of the same kind with the same fields. */
  equals(other) {
    return (
      other instanceof RecordState &&
      other.constructor === this.constructor &&
      this.constructor.$fields.every(([, js]) => same(other[js], this[js]))
    );
  }

  toString() {
    const fields = this.constructor.$fields.map(([py, js]) => `${py}=${this[js]}`);
    return `${this.constructor.name}(${fields.join(", ")})`;
  }
}
