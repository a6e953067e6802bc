/**
 * Dice: the value type of every dice expression, exact distributions,
 * scripted rolls (the JavaScript twin of the Python runtime's dice.py).
 *
 * An rng is anything with a `randint(a, b)` method answering an integer in
 * a..b: `new Random(seed)` (./random.js) draws as CPython's random.Random
 * does, and `Scripted` replays given results.
 */

import * as spec from "./_dice_spec.js";
import { RuleInputError } from "./errors.js";
import { MAX_ENTRIES, countSums, fraction, fractionText, grouped, shown, tooMany } from "./_support.js";

const MAX_WORK = spec.DICE_WORK_PER_ENTRY * MAX_ENTRIES;
const CACHED_SUMS = MAX_ENTRIES / 10;
const CACHE_SIZE = 256;
const cache = new Map();

function checkInt(value, field) {
  if (!Number.isSafeInteger(value)) {
    throw new RuleInputError(`Dice ${field} must be an int, not ${shown(value)}`);
  }
}

/**
 * The exact chance of each value (a Map of whole numbers to fractions), as
 * `Dice.distribution()` and `Odds.chances` answer it. Its JSON (what
 * JSON.stringify writes) is the Python runtime's: an object keyed by each
 * value's digits, each chance an "n/d" string.
 */
export class Distribution extends Map {
  toJSON() {
    return Object.fromEntries([...this].map(([value, chance]) => [String(value), fractionText(chance)]));
  }
}

/**
 * A dice expression: (sum of `count` dice of `sides`) x multiplier + modifier.
 * A constant has `count` 0 (and `sides` 0). Frozen.
 */
export class Dice {
  constructor(count, sides, modifier = 0, multiplier = 1, unit = null) {
    checkInt(count, "count");
    checkInt(sides, "sides");
    checkInt(modifier, "modifier");
    checkInt(multiplier, "multiplier");
    if (count < 0) throw new RuleInputError(`Dice count must be 0 or more, not ${count}`);
    if (count && sides < 1) {
      throw new RuleInputError(`Dice sides must be 1 or more, not ${sides}`);
    }
    if (!count && (sides || multiplier !== 1)) {
      throw new RuleInputError("a constant (count 0) has sides 0 and multiplier 1");
    }
    if (multiplier < 1) {
      throw new RuleInputError(`Dice multiplier must be 1 or more, not ${multiplier}`);
    }
    if (unit !== null && typeof unit !== "string") {
      throw new RuleInputError(`Dice unit must be a string or null, not ${shown(unit)}`);
    }
    this.count = count;
    this.sides = sides;
    this.modifier = modifier;
    this.multiplier = multiplier;
    this.unit = unit;
    Object.freeze(this);
  }

  /** The smallest value the expression can give. */
  get min() {
    return this.count * this.multiplier + this.modifier;
  }

  /** The largest value the expression can give. */
  get max() {
    return this.count * this.sides * this.multiplier + this.modifier;
  }

  /** The exact expected value. */
  get mean() {
    const twice =
      BigInt(this.count) * BigInt(this.sides + 1) * BigInt(this.multiplier) +
      2n * BigInt(this.modifier);
    return fraction(twice, 2n);
  }

  /**
   * The exact probability of every value, in ascending order of value.
   * Throws RuleInputError past the runtime's limits (as the Python runtime).
   */
  distribution() {
    const sums = this.count * (this.sides - 1) + 1;
    if (sums > MAX_ENTRIES || this.count * sums > MAX_WORK) {
      throw new RuleInputError(
        `${this} has ${grouped(sums)} possible sums from ${grouped(this.count)} dice: an exact ` +
          `distribution is worked out for at most ${grouped(MAX_ENTRIES)} sums and ` +
          `${grouped(MAX_WORK)} dice x sums (a limit of the runtime, not of the rules)`,
      );
    }
    const counts =
      sums <= CACHED_SUMS ? cachedSums(this.count, this.sides) : countSums(this.count, this.sides);
    const total = BigInt(this.sides) ** BigInt(this.count);
    const result = new Distribution();
    counts.forEach((n, i) => {
      const value = (this.count + i) * this.multiplier + this.modifier;
      result.set(value, fraction(n, total));
    });
    return result;
  }

  /**
   * Roll the dice: one `rng.randint(1, sides)` call per die, in order.
   * Throws RuleInputError for an rng that is not one, or answers outside
   * 1..sides, and for more than MAX_ENTRIES dice.
   */
  roll(rng) {
    const randint = randintOf(rng);
    const { sides, count } = this;
    if (count === 1) return draw(randint, 1, sides) * this.multiplier + this.modifier;
    if (count > MAX_ENTRIES) throw tooMany(`die rolls (${this} rolls ${count})`);
    let total = 0;
    for (let i = 0; i < count; i++) total += draw(randint, 1, sides);
    return total * this.multiplier + this.modifier;
  }

  /** Whether `other` is a Dice of the same figures and unit. */
  equals(other) {
    return (
      other instanceof Dice &&
      other.count === this.count &&
      other.sides === this.sides &&
      other.modifier === this.modifier &&
      other.multiplier === this.multiplier &&
      other.unit === this.unit
    );
  }

  /** The dice as plain JSON-able data: their notation and every figure. */
  toDict() {
    return {
      notation: String(this),
      count: this.count,
      sides: this.sides,
      modifier: this.modifier,
      multiplier: this.multiplier,
      unit: this.unit,
    };
  }

  toJSON() {
    return this.toDict();
  }

  /** The notation: `3d6`, `2d6x10`, `1d4+1`, or a constant's value. */
  toString() {
    if (!this.count) return String(this.modifier);
    let text = `${this.count}d${this.sides}`;
    if (this.multiplier !== 1) text += `x${this.multiplier}`;
    if (this.modifier) text += this.modifier > 0 ? `+${this.modifier}` : String(this.modifier);
    return text;
  }
}

/**
 * A dice expression that does not parse: `offset` is where it went wrong (in
 * code points, as Python counts), `hint` how to mend it (or null).
 */
export class DiceSyntaxError extends RuleInputError {
  constructor(message, offset, hint = null) {
    super(message);
    this.offset = offset;
    this.hint = hint;
  }
}

/** Throw RuleInputError for anything that cannot roll dice. */
export function checkRng(rng) {
  randintOf(rng);
}

/** `rng`'s randint as a function of (a, b); RuleInputError if it has none. */
export function randintOf(rng) {
  let randint;
  try {
    randint = rng.randint;
  } catch {
    randint = undefined;
  }
  if (typeof randint !== "function") {
    throw new RuleInputError(
      `rng must have a randint(a, b) method, such as new Random(), not ${shown(rng)}`,
    );
  }
  return (a, b) => randint.call(rng, a, b);
}

/**
 * `randint(a, b)`, checked: every die the runtime rolls is rolled here.
 * A RuleInputError names the rng when it throws (other than a RuleInputError
 * of its own, such as a Scripted script running out) or answers anything but
 * an integer in a..b.
 */
export function draw(randint, a, b) {
  let value;
  try {
    value = randint(a, b);
  } catch (error) {
    if (error instanceof RuleInputError) throw error;
    const name = error instanceof Error ? error.name : typeof error;
    throw new RuleInputError(
      `rng.randint(${a}, ${b}) raised ${name}: it must return an int in ${a}..${b}`,
    );
  }
  if (Number.isSafeInteger(value) && a <= value && value <= b) return value;
  throw new RuleInputError(
    `rng.randint(${a}, ${b}) returned ${shown(value)}: it must return an int in ${a}..${b}`,
  );
}

function cachedSums(count, sides) {
  const key = `${count}d${sides}`;
  let found = cache.get(key);
  if (found !== undefined) {
    cache.delete(key);
  } else {
    found = countSums(count, sides);
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value);
  }
  cache.set(key, found);
  return found;
}

/**
 * An rng that returns scripted die results in order (how worked examples fix
 * dice). Throws RuleInputError when a result is outside the die's range or
 * the script runs out.
 */
export class Scripted {
  #results;
  #used = 0;

  constructor(results) {
    this.#results = Object.freeze([...results]);
    for (const value of this.#results) {
      if (!Number.isSafeInteger(value)) {
        throw new RuleInputError(`scripted results must be ints, not ${shown(value)}`);
      }
    }
  }

  /** How many scripted results are still unused. */
  get remaining() {
    return this.#results.length - this.#used;
  }

  randint(a, b) {
    if (this.#used >= this.#results.length) {
      throw new RuleInputError(
        `the dice script ran out: all ${this.#results.length} results were used`,
      );
    }
    const value = this.#results[this.#used];
    if (!(a <= value && value <= b)) {
      throw new RuleInputError(
        `scripted result #${this.#used + 1} is ${value}, outside the die's range ${a}..${b}`,
      );
    }
    this.#used += 1;
    return value;
  }

  toString() {
    return `Scripted([${this.#results.join(", ")}], used=${this.#used})`;
  }
}
