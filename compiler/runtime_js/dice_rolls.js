/**
 * Dice rolls: a `DiceSum` rolled with the caller's rng, every die in the order
 * written (the JavaScript twin of the Python runtime's dice_rolls.py).
 *
 * One `rng.randint(1, sides)` call per die (`randint(1, 3)` for a Fudge die,
 * whose face is the answer less 2): the pools of the tree left to right as
 * written (depth first), each pool's dice in turn, a die's rerolls right
 * after it (and a unique die's draws again), then the dice its explosion
 * adds, each with its own rerolls. Labels draw nothing. Values are exact
 * (./dice_tree.js: a number when whole, else a fraction). So `roll(dice, new Random(seed))` rolls what
 * Python's `roll(dice, random.Random(seed))` rolls.
 */

import { draw, randintOf } from "./dice.js";
import { DiceSum, Pool, Term, Value } from "./dice_terms.js";
import { Call, FUNCTIONS, Group, Labeled, Test, divided, holds, negated, order, plus, times } from "./dice_tree.js";
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
 * that `!`, `!p` or `!o` adds is a die of its own, `!p`'s counting its face
 * less 1; `!!` adds into its die); `faces`: every face each die showed,
 * rerolled faces included; `kept`: whether each die is kept; `hits`: whether
 * each kept die meets the pool's target; `fails`: whether it meets its
 * failure; `value`: the kept dice's sum, or the hits less the fails, times
 * the multiplier (`fails`: all false when not given).
 */
export class PoolRoll extends Value {
  static FIELDS = Object.freeze([
    ["dice", "dice"],
    ["faces", "faces"],
    ["kept", "kept"],
    ["hits", "hits"],
    ["value", "value"],
    ["fails", "fails"],
  ]);

  constructor(dice, faces, kept, hits, value, fails = null) {
    super();
    this.dice = Object.freeze([...dice]);
    this.faces = Object.freeze(faces.map((f) => Object.freeze([...f])));
    this.kept = Object.freeze([...kept]);
    this.hits = Object.freeze([...hits]);
    this.value = value;
    this.fails = Object.freeze(fails === null ? this.dice.map(() => false) : [...fails]);
    Object.freeze(this);
  }
}

/**
 * One roll of a node above the pools (a product, a call, a group, a test, a
 * label, a sum in parentheses): its `value` and its `parts` (each operand,
 * argument, item or term's roll, in order; a whole number or a fraction
 * stands for itself, a term's signed); `kept`: which of a group's items count
 * (empty for any other node).
 */
export class NodeRoll extends Value {
  static FIELDS = Object.freeze([["value", "value"], ["parts", "parts"], ["kept", "kept"]]);

  constructor(value, parts, kept = []) {
    super();
    this.value = value;
    this.parts = Object.freeze([...parts]);
    this.kept = Object.freeze([...kept]);
    Object.freeze(this);
  }
}

/** The pools' rolls of `parts`, depth first. */
function poolRolls(parts) {
  return parts.flatMap((part) =>
    part instanceof PoolRoll ? [part] : part instanceof NodeRoll ? poolRolls(part.parts) : [],
  );
}

/** A roll of a `DiceSum`: its `total` and each term's roll (a whole number
 * or a fraction stands for itself, signed). */
export class Rolled extends Value {
  static FIELDS = Object.freeze([["total", "total"], ["terms", "terms"]]);

  constructor(total, terms) {
    super();
    this.total = total;
    this.terms = Object.freeze([...terms]);
    Object.freeze(this);
  }

  /** The dice the pools kept, in order (every pool of the tree). */
  get results() {
    return poolRolls(this.terms).flatMap((r) => r.dice.filter((_, i) => r.kept[i]));
  }

  /** Every face rolled, in order, rerolled and dropped ones included. */
  get rolled() {
    return poolRolls(this.terms).flatMap((r) => r.faces.flat());
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
 * Throws RuleInputError for an rng that answers anything but a face, past
 * MAX_ENTRIES die rolls and for a division by zero.
 */
export function roll(dice, rng) {
  if (!(dice instanceof DiceSum)) {
    throw new RuleInputError(`dice must be a DiceSum, not ${shown(dice)}`);
  }
  const [total, terms] = rollTerms(dice, new Roller(rng));
  return new Rolled(total, terms);
}

/** A sum's total and each term's roll. */
function rollTerms(dice, roller) {
  const terms = [];
  let total = 0;
  for (const term of dice.terms) {
    const [value, part] = rollNode(term.value, roller);
    const signed = term.sign < 0 ? negated(value) : value;
    total = plus(total, signed);
    terms.push(part instanceof Value ? part : signed);
  }
  return [total, terms];
}

/** A node's value and its roll. */
function rollNode(node, roller) {
  if (node instanceof Pool) {
    const rolled = rollPool(node, roller);
    return [rolled.value, rolled];
  }
  if (!(node instanceof Value)) return [node, node];
  if (node instanceof DiceSum) {
    const [total, terms] = rollTerms(node, roller);
    return [total, new NodeRoll(total, terms)];
  }
  if (node instanceof Group) return rollGroup(node, roller);
  const operands = node instanceof Call ? node.args : node instanceof Labeled ? [node.node] : [node.left, node.right];
  const rolled = operands.map((o) => rollNode(o, roller));
  const values = rolled.map(([v]) => v);
  let value;
  if (node instanceof Call) value = FUNCTIONS[node.name](...values);
  else if (node instanceof Labeled) value = values[0];
  else if (node instanceof Test) value = holds(node.op, values[0], values[1]) ? 1 : 0;
  else value = node.op === "*" ? times(values[0], values[1]) : divided(values[0], values[1]);
  return [value, new NodeRoll(value, rolled.map(([, p]) => p))];
}

/** A group: its items rolled in order, kept or dropped by their totals (ties:
 * the first written ranks first), summed or counted. */
function rollGroup(group, roller) {
  const rolled = group.items.map((item) => rollNode(item, roller));
  const values = rolled.map(([v]) => v);
  const kept = keptOf(group.keep, group.kept, values, order);
  let value = 0;
  values.forEach((v, i) => {
    if (!kept[i]) return;
    if (group.target === null) value = plus(value, v);
    else value += (meetsValue(group.target, v) ? 1 : 0) - (group.failure !== null && meetsValue(group.failure, v) ? 1 : 0);
  });
  return [value, new NodeRoll(value, rolled.map(([, p]) => p), kept)];
}

/** Whether an item's total (perhaps a fraction) meets a condition. */
function meetsValue(condition, value) {
  return condition.conditions.some((c) => holds(c.op, value, c.value));
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
  if (!plainPool(pool)) return roll(new DiceSum([new Term(1, pool)]), rng).total;
  const randint = randintOf(rng);
  const { count, sides } = pool;
  if (count > MAX_ENTRIES) throw tooMany("die rolls");
  let found = 0;
  for (let i = 0; i < count; i++) found += draw(randint, 1, sides);
  return safe(safe(found, "the total") * pool.multiplier, "the total");
}

/** Whether a pool's dice are only summed (its short way): numbers, each
 * rolled once and kept. */
function plainPool(pool) {
  const { fudge, listed, minimum, maximum, reroll, explode, unique, keep, target } = pool;
  return !fudge && listed === null && minimum === null && maximum === null && reroll === null &&
    explode === null && !unique && keep === null && target === null;
}

/** One die of a pool and the dice its explosion adds: [results, faces shown]. */
function rollDie(pool, roller, earlier) {
  let [face, shown] = roller.die(pool);
  while (pool.unique && earlier.includes(face)) {
    face = roller.face(pool);
    shown = shown.concat([face]);
  }
  if (pool.explode === "!!") {
    let value = face;
    while (pool.explodes(face)) {
      let more;
      [face, more] = roller.die(pool);
      shown = shown.concat(more);
      value += face;
    }
    return [[value], [shown]];
  }
  const dice = [face];
  const faces = [shown];
  let extra = 0;
  while (pool.explode !== null && pool.explodes(face)) {
    if (pool.explode === "!o" && extra) break;
    [face, shown] = roller.die(pool);
    dice.push(pool.explode === "!p" ? face - 1 : face);
    faces.push(shown);
    extra += 1;
  }
  return [dice, faces];
}

function rollPool(pool, roller) {
  let dice = [];
  let faces = [];
  for (let i = 0; i < pool.count; i++) {
    const [more, shown] = rollDie(pool, roller, dice);
    dice = dice.concat(more);
    faces = faces.concat(shown);
  }
  const kept = keptOf(pool.keep, pool.keeps(dice.length), dice, (a, b) => a - b);
  const { target, failure } = pool;
  const hits = dice.map((d, i) => kept[i] && target !== null && target.meets(d));
  const fails = dice.map((d, i) => kept[i] && failure !== null && failure.meets(d));
  let value = 0;
  if (!pool.numeric) {
    // a die of symbols: its faces are read, not added
  } else if (target === null) {
    dice.forEach((d, i) => {
      if (kept[i]) value += d;
    });
  } else {
    value = hits.filter(Boolean).length - fails.filter(Boolean).length;
  }
  value = safe(safe(value, "a pool's value") * pool.multiplier, "a pool's value");
  return new PoolRoll(dice, faces, kept, hits, value, fails);
}

/** Which of `values` are kept: `count` of them by `keep` (ties: the first
 * ranks first); `compare` orders two values. */
function keptOf(keep, count, values, compare) {
  if (keep === null) return values.map(() => true);
  const highest = keep === "kh" || keep === "dl";
  const ranked = values
    .map((_, i) => i)
    .sort((a, b) => (highest ? compare(values[b], values[a]) : compare(values[a], values[b])) || a - b);
  const chosen = new Set(ranked.slice(0, count));
  return values.map((_, i) => chosen.has(i));
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
