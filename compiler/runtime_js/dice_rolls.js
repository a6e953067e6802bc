/**
 * Dice rolls: a `DiceSum` rolled with the caller's rng, every die in the order
 * written (the JavaScript twin of the Python runtime's dice_rolls.py).
 *
 * One `rng.randint(1, sides)` call per die (`randint(1, 3)` for a Fudge die,
 * whose face is the answer less 2): the pools left to right, each pool's dice
 * in turn, a die's rerolls right after it, then the dice its explosion adds,
 * each with its own rerolls. So `roll(dice, new Random(seed))` rolls what
 * Python's `roll(dice, random.Random(seed))` rolls.
 */

import { draw, randintOf } from "./dice.js";
import { DiceSum, Pool, Term, Value } from "./dice_terms.js";
import { RuleInputError } from "./errors.js";
import { MAX_ENTRIES, shown, tooMany } from "./_support.js";

/** An integer past Number.MAX_SAFE_INTEGER is refused, never rounded. */
export function safe(value, what) {
  if (!Number.isSafeInteger(value)) {
    throw new RuleInputError(
      `${what} passes Number.MAX_SAFE_INTEGER (2**53 - 1), the largest integer ` +
        "JavaScript holds exactly (a limit of the runtime, not of the rules)",
    );
  }
  return value;
}

/**
 * One roll of a pool. `dice`: each die's result in the order rolled (a die
 * that `!` or `!o` adds is a die of its own; `!!` adds into its die);
 * `faces`: every face each die showed, rerolled faces included; `kept`:
 * whether each die is kept; `hits`: whether each kept die meets the pool's
 * target; `value`: the kept dice's sum, or the count of hits, times the
 * multiplier.
 */
export class PoolRoll extends Value {
  static FIELDS = Object.freeze([
    ["dice", "dice"],
    ["faces", "faces"],
    ["kept", "kept"],
    ["hits", "hits"],
    ["value", "value"],
  ]);

  constructor(dice, faces, kept, hits, value) {
    super();
    this.dice = Object.freeze([...dice]);
    this.faces = Object.freeze(faces.map((f) => Object.freeze([...f])));
    this.kept = Object.freeze([...kept]);
    this.hits = Object.freeze([...hits]);
    this.value = value;
    Object.freeze(this);
  }
}

/** A roll of a `DiceSum`: its `total` and each term's roll (a whole number
 * stands for itself, signed). */
export class Rolled extends Value {
  static FIELDS = Object.freeze([["total", "total"], ["terms", "terms"]]);

  constructor(total, terms) {
    super();
    this.total = total;
    this.terms = Object.freeze([...terms]);
    Object.freeze(this);
  }

  /** The dice the pools kept, in order. */
  get results() {
    return this.terms.flatMap((term) =>
      term instanceof PoolRoll ? term.dice.filter((_, i) => term.kept[i]) : [],
    );
  }

  /** Every face rolled, in order, rerolled and dropped ones included. */
  get rolled() {
    return this.terms.flatMap((term) => (term instanceof PoolRoll ? term.faces.flat() : []));
  }
}

/** Rolls dice one by one, counting them against MAX_ENTRIES. */
class Roller {
  constructor(rng) {
    this.randint = randintOf(rng);
    this.count = 0;
  }

  /** One die with its rerolls: [its face, every face it showed]. */
  die(pool) {
    let face = this.face(pool);
    const faces = [face];
    const reroll = pool.reroll;
    while (reroll !== null && reroll.meets(face)) {
      face = this.face(pool);
      faces.push(face);
      if (pool.rerollOnce) break;
    }
    return [face, faces];
  }

  face(pool) {
    this.count += 1;
    if (this.count > MAX_ENTRIES) throw tooMany("die rolls");
    return pool.face(draw(this.randint, 1, pool.sides));
  }
}

/**
 * Roll `dice` with `rng` (anything with `randint(a, b)`, such as `new Random(seed)`).
 * Throws RuleInputError for an rng that answers anything but a face and past
 * MAX_ENTRIES die rolls.
 */
export function roll(dice, rng) {
  if (!(dice instanceof DiceSum)) {
    throw new RuleInputError(`dice must be a DiceSum, not ${shown(dice)}`);
  }
  const roller = new Roller(rng);
  const terms = [];
  let total = 0;
  for (const term of dice.terms) {
    if (term.value instanceof Pool) {
      const rolled = rollPool(term.value, roller);
      total = safe(total + term.sign * rolled.value, "the total");
      terms.push(rolled);
    } else {
      total = safe(total + term.sign * term.value, "the total");
      terms.push(term.sign * term.value);
    }
  }
  return new Rolled(total, terms);
}

/**
 * The total of one roll of `pool`: the same dice, rolled in the same order and
 * refused alike, as `roll(new DiceSum([new Term(1, pool)]), rng).total`,
 * without keeping each die (a plain pool of dice summed takes a short way).
 */
export function total(pool, rng) {
  if (!(pool instanceof Pool)) {
    throw new RuleInputError(`pool must be a Pool, not ${shown(pool)}`);
  }
  if (
    pool.fudge ||
    pool.listed !== null ||
    pool.reroll !== null ||
    pool.explode !== null ||
    pool.keep !== null ||
    pool.target !== null
  ) {
    return roll(new DiceSum([new Term(1, pool)]), rng).total;
  }
  const randint = randintOf(rng);
  const { count, sides } = pool;
  if (count > MAX_ENTRIES) throw tooMany("die rolls");
  let found = 0;
  for (let i = 0; i < count; i++) found += draw(randint, 1, sides);
  return safe(safe(found, "the total") * pool.multiplier, "the total");
}

function rollPool(pool, roller) {
  const dice = [];
  const faces = [];
  for (let i = 0; i < pool.count; i++) {
    let [face, shown] = roller.die(pool);
    if (pool.explode === "!!") {
      let value = face;
      while (pool.explodes(face)) {
        let more;
        [face, more] = roller.die(pool);
        shown = shown.concat(more);
        value += face;
      }
      dice.push(value);
      faces.push(shown);
      continue;
    }
    dice.push(face);
    faces.push(shown);
    let extra = 0;
    while (pool.explode !== null && pool.explodes(face)) {
      if (pool.explode === "!o" && extra) break;
      [face, shown] = roller.die(pool);
      dice.push(face);
      faces.push(shown);
      extra += 1;
    }
  }
  const kept = keptDice(pool, dice);
  const target = pool.target;
  const hits = dice.map((d, i) => kept[i] && target !== null && target.meets(d));
  let value = 0;
  if (!pool.numeric) {
    // a die of symbols: its faces are read, not added
  } else if (target === null) {
    dice.forEach((d, i) => {
      if (kept[i]) value += d;
    });
  } else {
    value = hits.filter(Boolean).length;
  }
  return new PoolRoll(dice, faces, kept, hits, safe(value * pool.multiplier, "a pool's value"));
}

/** Which dice the pool keeps (ties: the die rolled first ranks first). */
function keptDice(pool, dice) {
  if (pool.keep === null) return dice.map(() => true);
  const highest = pool.keep === "kh" || pool.keep === "dl";
  const order = dice
    .map((_, i) => i)
    .sort((a, b) => (highest ? dice[b] - dice[a] : dice[a] - dice[b]) || a - b);
  const chosen = new Set(order.slice(0, pool.kept));
  return dice.map((_, i) => chosen.has(i));
}

/** How many times `symbol` shows on `faces` (dice of symbols: each face an
 * array of them, a symbol perhaps more than once on one face). */
export function tally(faces, symbol) {
  if (typeof symbol !== "string") {
    throw new RuleInputError(`symbol must be a str, not ${shown(symbol)}`);
  }
  let found = 0;
  for (const face of faces) {
    if (!Array.isArray(face)) {
      throw new RuleInputError(`a face of symbols is a tuple, not ${shown(face)}`);
    }
    for (const x of face) if (x === symbol) found += 1;
  }
  return found;
}
