/**
 * Odds of a rule's answer: the sources and answers generated
 * `<function>Odds` code hands the engine (the JavaScript twin of the Python
 * runtime's odds.py and _odds.py; the same answers, chance for chance).
 *
 * A generated `<function>Odds` works its rule out over chances instead of
 * rolls, as a plan of the engine (./_plan.js): its sources are the chances of
 * its dice and of the rules it calls. A dice total's chances come from
 * ./dice_odds.js (`total`); a pool read only through folds is worked out over
 * the multiset of its outcomes (`dice` and `item` make its groups, `pool` its
 * chances: ./_multiset.js); a pool read as a list, its kept dice as a
 * multiset (`kept`, `results`); a call of another rule that rolls is what its
 * odds function answers (`called`); a roll of a dice value its distribution
 * (`rolled`). No roll is enumerated. Weights are bigints, chances exact
 * `{numerator, denominator}` fractions.
 *
 * An explosion is followed `depth` dice deep; the chance of the rolls cut off
 * there is the `tail` of the answer. The answer is one value's chances
 * (`chances`), each field's own (`byField`, an `OddsByField`), or the
 * chances of the fields together (`joint`).
 */

import { DEPTH, countedOdds } from "./dice_odds.js";
import { RuleInputError } from "./errors.js";
import { toData } from "./json.js";
import { Dist, Tally, compare, marginal, weighedDist } from "./_dist.js";
import { Group, dieOutcomes, element, group, multiset } from "./_multiset.js";
import {
  MAX_ENTRIES,
  addFractions,
  bitLength,
  fraction,
  grouped,
  shown,
  spend,
  weighed as steps,
} from "./_support.js";

export { Dist } from "./_dist.js";
export { each, let, run, source } from "./_plan.js";

/**
 * Each answer a rule can give with its exact chance (a Map, answers
 * ascending), and the `tail`: the chance that an explosion was cut off at the
 * depth, leaving the answer unknown (0 for a rule without unbounded
 * explosions); the chances listed sum to `1 - tail`. Its JSON is an object of
 * its answers, as the Python runtime's `Chances` (a dict) writes.
 */
export class Chances extends Map {
  #tail;

  constructor(entries, tail) {
    super(entries);
    this.#tail = tail;
  }

  /** The chance left unknown by an explosion cut off at the depth. */
  get tail() {
    return this.#tail;
  }

  /** The chance of an answer of `value` or more, for a rule answering whole
   * numbers: all but the chance of the answers below it (the tail counted in,
   * as an explosion cut off only adds). Throws `RuleInputError` for a `value`
   * that is not a safe integer, and for answers that are not whole numbers. */
  atLeast(value) {
    if (!Number.isSafeInteger(value)) {
      throw new RuleInputError(`value must be an int, not ${shown(value)}`);
    }
    let below = fraction(0n);
    for (const [answer, chance] of this) {
      if (!Number.isSafeInteger(answer)) {
        throw new RuleInputError(`at_least compares whole-number answers, not ${shown(answer)}`);
      }
      if (answer < value) below = addFractions(below, chance);
    }
    return addFractions(fraction(1n), fraction(-below.numerator, below.denominator));
  }

  toJSON() {
    return toData(this);
  }
}

/**
 * Each field's own chances (a `Chances`), by the field's name, in the order
 * the rules name them: what an odds function answers for a rule whose odds
 * are of several fields, all from one working out. A read-only Map (its
 * `set`, `delete` and `clear` throw); its JSON is an object of the fields by
 * the names the rules give them, as the Python runtime's `OddsByField`.
 */
export class OddsByField extends Map {
  #names;

  /** `fields`: [name, chances] pairs; `names`: the rules' name of each, for JSON. */
  constructor(fields, names = null) {
    super();
    for (const [name, chances] of fields) super.set(name, chances);
    this.#names = names ?? fields.map(([name]) => name);
  }

  set() {
    throw new TypeError("the odds are read-only");
  }

  delete() {
    throw new TypeError("the odds are read-only");
  }

  clear() {
    throw new TypeError("the odds are read-only");
  }

  toDict() {
    const names = this.#names;
    return Object.fromEntries([...this.values()].map((chances, i) => [names[i], chances]));
  }

  toJSON() {
    return toData(this);
  }
}

/** A value known for certain (a source not rolled where its guard fails). */
function constant(value) {
  return new Dist([[value, 1n]], 0n, 1n);
}

export { constant as const };

/** A dice term's total: `make(count, sides)`'s; no dice total 0. */
export function total(make, count, sides, depth = DEPTH) {
  if (!count) return constant(0);
  const chances = countedOdds(make(count, sides), depth);
  return weighedDist(chances.chances, chances.tail);
}

/** The dice a pool keeps (a sorted list): a pool read as a list. */
export function kept(make, count, sides, depth = DEPTH) {
  if (!count) return constant([]);
  return results(make(count, sides), depth);
}

/** A pool whose dice nothing reads: only its chance of being known. */
export function unread(make, count, sides, depth = DEPTH) {
  if (!count) return constant([]);
  const made = make(count, sides);
  const die = dieOutcomes(made, depth);
  let known = 0n;
  for (const w of die.weights.values()) known += w;
  const n = BigInt(made.count);
  const everything = die.denom ** n;
  return new Dist([[[], known ** n]], everything - known ** n, everything);
}

/** A pool's dice as a group of a multiset (no dice: an empty group). */
export function dice(make, count, sides, depth = DEPTH) {
  if (!count) return new Group([], 0n, 1n, 0);
  return group(make(count, sides), depth);
}

/** One item of a list, of the chances `part` (a dice total). */
export function item(part) {
  return element(part);
}

/** The chances of the folds' values over the dice of `groups`. */
export function pool(groups, folds) {
  return multiset(groups, folds);
}

/** A roll of a dice value (`roll(d)`): its exact distribution. */
export function rolled(dice) {
  return weighedDist(dice.distribution(), fraction(0n));
}

/** The chances another rule's odds function answers, as a source. */
export function called(chances) {
  return weighedDist(chances, chances.tail);
}

/** A case that refuses, reached: the odds refuse as the rule does. */
export function refused(text) {
  throw new RuleInputError(text);
}

/** The chances of the one value a run answers (`labels`: its enum's, if any). */
export function chances(part, labels = null) {
  return answer(marginal(part, 0), labels);
}

/** Each field's own chances (`names`: [name, the rules' name] of each;
 * `labels`: each field's enum's labels, or null). */
export function byField(part, names, labels) {
  const fields = names.map(([name], i) => [name, answer(marginal(part, i), labels[i])]);
  return new OddsByField(fields, names.map(([, rules]) => rules));
}

/** The chances of the fields together, each answer a list of them. */
export function joint(part, labels) {
  return answerBy(part, (at) => order(labels[at] ?? null));
}

/** Dice in order: numbers ascending; faces of symbols as Python orders
 * their tuples (`compare`). */
function ordered(a, b) {
  return typeof a === "number" && typeof b === "number" ? a - b : compare(a, b);
}

function order(labels) {
  return labels === null ? null : new Map(labels.map((label, i) => [label, i]));
}

/** The chances as exact fractions, answers ascending (`labels`, when given,
 * the labels of an enum in its order: they answer in that order, as Python's). */
export function answer(part, labels = null) {
  const rank = order(labels);
  return answerBy(part, () => rank);
}

function answerBy(part, labels) {
  const found = [...part.weights]
    .sort((a, b) => compare(a[0], b[0], labels))
    .map(([v, w]) => [v, fraction(w, part.denom)]);
  return new Chances(found, fraction(part.cut, part.denom));
}

/**
 * The dice `pool` keeps, lowest first: a dynamic programme over the dice one
 * at a time, a state being the multiset kept so far (the dice a keep drops are
 * dropped as they go: they can never be kept again).
 */
export function results(pool, depth) {
  const die = dieOutcomes(pool, depth);
  const keep = pool.keep !== null ? pool.kept : null;
  const highest = pool.keep === "kh" || pool.keep === "dl";
  let states = new Tally();
  states.add([], 1n);
  let denom = 1n;
  for (let i = 0; i < pool.count; i++) {
    const width = states.found.values().next().value[0].length + 1; // each merge copies a state's dice
    denom *= die.denom;
    const work = BigInt(states.found.size) * BigInt(die.weights.size) * BigInt(width);
    spend(steps(work, bitLength(denom)));
    const after = new Tally();
    for (const [state, ways] of states) {
      for (const [shown, w] of die.weights) {
        let merged = [...state, ...shown].sort(ordered);
        if (keep !== null) {
          // the highest: all while fewer than `keep` (no index from the end)
          const cut = highest ? Math.max(merged.length - keep, 0) : 0;
          merged = merged.slice(cut, cut + keep);
        }
        after.add(merged, ways * w);
      }
    }
    if (after.found.size > MAX_ENTRIES) {
      throw new RuleInputError(
        `${pool} keeps more than ${grouped(MAX_ENTRIES)} sets of dice ` +
          "(a limit of the runtime, not of the rules)",
      );
    }
    states = after;
  }
  const count = BigInt(pool.count);
  return new Dist(states, denom - (die.denom - die.cut) ** count, denom);
}

