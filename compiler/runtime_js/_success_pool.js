/**
 * Success pools: roll a handful of dice and count those that meet a target
 * (the JavaScript twin of the Python runtime's _success_pool.py).
 *
 * A die showing `againAt` or more is rolled again and may add more successes.
 * A pool of no dice (or fewer) is a single chance die: only `chanceSuccessAt`
 * succeeds (and rolls again like any die), and `chanceDramaticAt` is a
 * dramatic failure. Each die's re-rolls come right after it, before the next.
 */

import { RuleInputError } from "./errors.js";
import {
  MAX_ENTRIES,
  addFractions,
  divFractions,
  fraction,
  fractionText,
  mulFractions,
  shown,
  tooMany,
} from "./_support.js";
import { draw, randintOf } from "./dice.js";
import { record, shape } from "./json.js";

const RESULT = shape(["successes", "successes"], ["dramaticFailure", "dramatic_failure"], ["rolls", "rolls"]);
const ZERO = fraction(0n);
const ONE = fraction(1n);

function poolResult(successes, dramaticFailure, rolls) {
  return record(RESULT, { successes, dramaticFailure, rolls: Object.freeze([...rolls]) });
}

function sub(a, b) {
  return addFractions(a, fraction(-b.numerator, b.denominator));
}

function pow(base, exponent) {
  let result = ONE;
  for (let i = 0; i < exponent; i++) result = mulFractions(result, base);
  return result;
}

/**
 * The exact chance of each success count from 0 up to a limit (a Map), with
 * `tail` the chance of more successes than the counts listed and
 * `dramaticFailure` the chance of a dramatic failure.
 */
export class PoolDistribution extends Map {
  constructor(entries, tail, dramaticFailure) {
    super(entries);
    this.tail = tail;
    this.dramaticFailure = dramaticFailure;
  }

  /** The exact chance of `successes` or more. */
  atLeast(successes) {
    if (!Number.isSafeInteger(successes)) {
      throw new RuleInputError(`successes must be an int, not ${shown(successes)}`);
    }
    let below = ZERO;
    for (const [k, p] of this) if (k < successes) below = addFractions(below, p);
    return sub(ONE, below);
  }

  /** Each count (as a string) to its chance as "n/d", then tail and dramatic_failure. */
  toDict() {
    const data = {};
    for (const [k, p] of this) data[String(k)] = fractionText(p);
    data.tail = fractionText(this.tail);
    data.dramatic_failure = fractionText(this.dramaticFailure);
    return data;
  }

  toJSON() {
    return this.toDict();
  }
}

function checkDice(dice, most) {
  if (!Number.isSafeInteger(dice)) {
    throw new RuleInputError(`dice must be an int, not ${shown(dice)}`);
  }
  if (dice > most) throw new RuleInputError(`dice must be at most ${most}, not ${dice}`);
}

const cache = new Map();

/** The figures of a success-counting dice pool (all from the rules data). Frozen. */
export class SuccessPool {
  constructor(sides, successAt, againAt, chanceSuccessAt, chanceDramaticAt, listedBeyond, maxDice) {
    this.sides = sides;
    this.successAt = successAt;
    this.againAt = againAt;
    this.chanceSuccessAt = chanceSuccessAt;
    this.chanceDramaticAt = chanceDramaticAt;
    this.listedBeyond = listedBeyond;
    this.maxDice = maxDice;
    Object.freeze(this);
  }

  /** Roll a pool of `dice` dice (a chance die for 0 or fewer). */
  roll(dice, rng) {
    checkDice(dice, this.maxDice);
    const randint = randintOf(rng);
    const rolls = [];
    if (dice <= 0) {
      const first = draw(randint, 1, this.sides);
      rolls.push(first);
      if (first === this.chanceDramaticAt) return poolResult(0, true, rolls);
      if (first < this.chanceSuccessAt) return poolResult(0, false, rolls);
      return poolResult(1 + this.#again(randint, rolls), false, rolls);
    }
    let successes = 0;
    for (let i = 0; i < dice; i++) {
      const face = draw(randint, 1, this.sides);
      rolls.push(face);
      if (face >= this.successAt) successes += 1;
      if (face >= this.againAt) successes += this.#again(randint, rolls);
    }
    return poolResult(successes, false, rolls);
  }

  #again(randint, rolls) {
    let successes = 0;
    for (;;) {
      if (rolls.length >= MAX_ENTRIES) {
        throw tooMany(
          `die rolls (rng.randint(1, ${this.sides}) kept answering ` +
            `${this.againAt} or more, and each is rolled again)`,
        );
      }
      const face = draw(randint, 1, this.sides);
      rolls.push(face);
      if (face >= this.successAt) successes += 1;
      if (face < this.againAt) return successes;
    }
  }

  /** The exact chance of each success count for a pool of `dice`. */
  distribution(dice) {
    checkDice(dice, this.maxDice);
    const key = [this.sides, this.successAt, this.againAt, this.chanceSuccessAt, this.chanceDramaticAt, this.listedBeyond, dice].join(",");
    let found = cache.get(key);
    if (found === undefined) {
      found = distributionOf(this, dice);
      if (cache.size >= 64) cache.delete(cache.keys().next().value);
      cache.set(key, found);
    }
    return new PoolDistribution(found.odds.map((p, k) => [k, p]), found.tail, found.dramatic);
  }

  /** The exact expected number of successes. */
  mean(dice) {
    const sides = fraction(this.sides);
    const succeed = divFractions(fraction(this.sides - this.successAt + 1), sides);
    const again = divFractions(fraction(this.sides - this.againAt + 1), sides);
    const perDie = divFractions(succeed, sub(ONE, again));
    if (dice > 0) return mulFractions(fraction(dice), perDie);
    const chance = divFractions(fraction(this.sides - this.chanceSuccessAt + 1), sides);
    return mulFractions(chance, addFractions(ONE, perDie));
  }

  toDict() {
    return {
      sides: this.sides,
      success_at: this.successAt,
      again_at: this.againAt,
      chance_success_at: this.chanceSuccessAt,
      chance_dramatic_at: this.chanceDramaticAt,
      listed_beyond: this.listedBeyond,
      max_dice: this.maxDice,
    };
  }

  toJSON() {
    return this.toDict();
  }
}

/** Chance of 0..limit successes from one die (with its re-rolls). */
function oneDie(pool, limit) {
  const sides = fraction(pool.sides);
  const fail = divFractions(fraction(pool.successAt - 1), sides);
  const stop = divFractions(fraction(pool.againAt - pool.successAt), sides);
  const again = divFractions(fraction(pool.sides - pool.againAt + 1), sides);
  const odds = [fail];
  for (let k = 1; k <= limit; k++) {
    odds.push(addFractions(mulFractions(pow(again, k), fail), mulFractions(pow(again, k - 1), stop)));
  }
  return odds;
}

function convolve(a, b, limit) {
  const out = new Array(limit + 1).fill(ZERO);
  a.forEach((p, i) => {
    if (p.numerator === 0n) return;
    b.slice(0, limit + 1 - i).forEach((q, j) => {
      out[i + j] = addFractions(out[i + j], mulFractions(p, q));
    });
  });
  return out;
}

function distributionOf(pool, dice) {
  const limit = Math.max(dice, 1) + pool.listedBeyond;
  const die = oneDie(pool, limit);
  let dramatic = ZERO;
  let odds;
  if (dice <= 0) {
    const sides = fraction(pool.sides);
    const chance = divFractions(fraction(pool.sides - pool.chanceSuccessAt + 1), sides);
    dramatic = divFractions(ONE, sides);
    odds = [sub(ONE, chance), ...die.slice(0, limit).map((p) => mulFractions(chance, p))];
  } else {
    odds = [ONE, ...new Array(limit).fill(ZERO)];
    for (let i = 0; i < dice; i++) odds = convolve(odds, die, limit);
  }
  let total = ZERO;
  for (const p of odds) total = addFractions(total, p);
  return { odds, tail: sub(ONE, total), dramatic };
}
