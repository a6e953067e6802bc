/**
 * Dice terms: pools that reroll, explode, keep and count, and sums of them
 * (the JavaScript twin of the Python runtime's dice_terms.py).
 *
 * The values the dice notation (./dice_notation.js) reads: a `Pool` of
 * `count` dice of `sides` (or Fudge dice, -1/0/+1), each die held between a
 * `minimum` and a `maximum`, rerolled (`r`: until it no longer meets the
 * condition; `ro`: once) and exploded (`!`, `!!`, `!p`, `!o`) as it is
 * rolled, or rolled again while it shows an earlier die's face (`u`); then the
 * pool keeps or drops its highest or lowest dice (`kh`, `kl`, `dh`, `dl`,
 * among every die explosions added too) and either sums the dice it keeps or
 * counts those that meet a target (`>=5`) less those that meet a failure
 * (`f1`); the pool's value is multiplied by `multiplier`. A `DiceSum` adds and
 * subtracts the nodes of ./dice_tree.js (pools, numbers, products, calls,
 * groups, tests, labels). ./dice_rolls.js rolls them, ./dice_odds.js works
 * out their exact odds. Each is frozen; its JSON (`dumps`, `toDict`) is the
 * Python runtime's, snake_case keys and all.
 */

import * as spec from "./_dice_spec.js";
import { RuleInputError } from "./errors.js";
import { toData } from "./json.js";
import { fraction, fractionText, isFraction, options, shown } from "./_support.js";

/** The comparisons, in the order read (the dice spec's). */
export const COMPARISONS = spec.COMPARISONS;
/** `!`: a die meeting the explode condition (by default its highest face)
 * rolls one more die, again while the new one does (each new die a die of
 * the pool); `!!` the same, the new dice added into the one die
 * (compounding); `!p` as `!`, each die an explosion adds counting its face
 * less 1 (penetrating); `!o`: one more die at most. */
export const EXPLODES = Object.freeze(["!!", "!p", "!o", "!"]);
export const KEEPS = Object.freeze(["kh", "kl", "dh", "dl"]);
export const SORTS = Object.freeze(["a", "d"]);
/** The faces of a Fudge die `dF.1`: one -1, four blanks, one +1. */
export const FUDGE_1 = Object.freeze([-1, 0, 0, 0, 0, 1]);

/** Python's repr of a tuple of strings, for messages alike in both runtimes. */
function tuple(items) {
  return `(${items.map((i) => `'${i}'`).join(", ")})`;
}

/**
 * A value compared and shown by its fields: `static FIELDS` pairs of
 * (JavaScript name, name in the JSON).
 */
export class Value {
  /** How tightly a node of a dice expression binds when written (-1: no node). */
  static PRECEDENCE = -1;

  /** The nodes of a dice expression right under this one, in the order written. */
  children() {
    return [];
  }

  /** The value as plain JSON-able data, keyed by its fields' snake_case names. */
  toDict() {
    return Object.fromEntries(this.constructor.FIELDS.map(([js, py]) => [py, toData(this[js])]));
  }

  toJSON() {
    return this.toDict();
  }

  /** Whether `other` is a value of the same class and the same fields. */
  equals(other) {
    return (
      other instanceof Value &&
      other.constructor === this.constructor &&
      JSON.stringify(other.toDict()) === JSON.stringify(this.toDict())
    );
  }
}

function int(name, value, low = null) {
  if (!Number.isSafeInteger(value)) {
    throw new RuleInputError(`${name} must be an int, not ${shown(value)}`);
  }
  if (low !== null && value < low) {
    throw new RuleInputError(`${name} must be ${low} or more, not ${value}`);
  }
  return value;
}

/** `values` as a frozen array, or null when they are not iterable. */
function frozenList(values) {
  try {
    return Object.freeze([...values]);
  } catch {
    return null;
  }
}

/** A comparison of a die's face (or result) with `value`: `>=5`. */
export class Compare extends Value {
  static FIELDS = Object.freeze([["op", "op"], ["value", "value"]]);

  constructor(op, value) {
    super();
    if (!COMPARISONS.includes(op)) {
      throw new RuleInputError(`a comparison is one of ${tuple(COMPARISONS)}, not ${shown(op)}`);
    }
    this.op = op;
    this.value = int("a comparison's value", value);
    Object.freeze(this);
  }

  /** Whether `face` meets the comparison. */
  meets(face) {
    const value = this.value;
    switch (this.op) {
      case ">=":
        return face >= value;
      case "<=":
        return face <= value;
      case ">":
        return face > value;
      case "<":
        return face < value;
      default:
        return face === value;
    }
  }

  /** The comparisons it is (one). */
  get conditions() {
    return [this];
  }

  toString() {
    return `${this.op}${this.value}`;
  }
}

/** Two comparisons or more: a face meets it when it meets any (`r1r3`). */
export class AnyOf extends Value {
  static FIELDS = Object.freeze([["conditions", "conditions"]]);

  constructor(conditions) {
    super();
    const found = frozenList(conditions);
    if (found === null || found.length < 2 || !found.every((c) => c instanceof Compare)) {
      throw new RuleInputError("AnyOf takes two Compare conditions or more");
    }
    this.conditions = found;
    Object.freeze(this);
  }

  /** Whether `face` meets any of its comparisons. */
  meets(face) {
    return this.conditions.some((c) => c.meets(face));
  }

  toString() {
    return this.conditions.map(String).join("");
  }
}

/** Whether `value` is a condition (a Compare or an AnyOf). */
export function isCondition(value) {
  return value instanceof Compare || value instanceof AnyOf;
}

const DEFAULTS = Object.freeze({
  fudge: false,
  minimum: null,
  maximum: null,
  reroll: null,
  rerollOnce: false,
  explode: null,
  explodeAt: null,
  unique: false,
  keep: null,
  keepCount: 0,
  target: null,
  failure: null,
  sort: null,
  multiplier: 1,
  listed: null,
});

/**
 * `count` dice of `sides` (Fudge dice when `fudge`), rolled, kept, summed or
 * counted. `minimum`, `maximum`: a face below (above) counts as it, before
 * any test. `reroll`: a die whose face meets it is rolled again (the new face
 * stands when `rerollOnce`, else again while it meets it). `explode`: see
 * `EXPLODES`; `explodeAt`: the faces that explode (null: the highest).
 * `unique`: a die showing an earlier die's face is rolled again. `keep`,
 * `keepCount`: the dice the pool keeps among all it rolled (`kh3`: the 3
 * highest; `dl1`: all but the lowest; a count above the dice keeps, or drops,
 * them all). `target`: the pool counts the kept dice that meet it instead of
 * summing them, less those that meet `failure`. `sort`: the roll shows its
 * dice sorted (`a`scending, `d`escending). `listed`: a die of the rules' own.
 */
export class Pool extends Value {
  static FIELDS = Object.freeze([
    ["count", "count"],
    ["sides", "sides"],
    ["fudge", "fudge"],
    ["minimum", "minimum"],
    ["maximum", "maximum"],
    ["reroll", "reroll"],
    ["rerollOnce", "reroll_once"],
    ["explode", "explode"],
    ["explodeAt", "explode_at"],
    ["unique", "unique"],
    ["keep", "keep"],
    ["keepCount", "keep_count"],
    ["target", "target"],
    ["failure", "failure"],
    ["sort", "sort"],
    ["multiplier", "multiplier"],
    ["listed", "listed"],
  ]);

  static PRECEDENCE = 3;

  constructor(count, sides, given = undefined) {
    super();
    const found = { ...DEFAULTS, ...options(given, Object.keys(DEFAULTS), "Pool") };
    this.count = int("a pool's count", count, 1);
    this.sides = int("a pool's sides", sides, 1);
    this.fudge = found.fudge === true;
    this.listed = found.listed === null ? null : listedFaces(found.listed, this.sides);
    this.minimum = found.minimum === null ? null : int("minimum", found.minimum);
    this.maximum = found.maximum === null ? null : int("maximum", found.maximum);
    this.reroll = found.reroll;
    this.rerollOnce = found.rerollOnce === true;
    this.explode = found.explode;
    this.unique = found.unique === true;
    this.keep = found.keep;
    this.keepCount = int("a pool's keep_count", found.keepCount, 0);
    this.target = found.target;
    this.failure = found.failure;
    this.sort = found.sort;
    this.multiplier = int("a pool's multiplier", found.multiplier, 1);
    this.explodeAt = found.explodeAt;
    const problem = this.problem();
    if (problem !== null) throw new RuleInputError(`${this}: ${problem}`);
    const { explodeAt } = this;
    if (explodeAt instanceof Compare && explodeAt.op === "=" && explodeAt.value === this.top) {
      this.explodeAt = null; // the highest face: the same as none
    }
    Object.freeze(this);
  }

  /** Why the pool cannot be rolled, or null (the parser's checks, again). */
  problem() {
    return kindProblem(this) ?? optionProblem(this) ?? countProblem(this);
  }

  /** Whether its faces are numbers (not a die of symbols). */
  get numeric() {
    return this.listed === null || this.listed.every((f) => typeof f === "number");
  }

  /** The faces of one die, in order of `randint(1, sides)`'s answers (a die
   * of symbols: its arrays of symbols, one array for each distinct face),
   * before `minimum` and `maximum`. */
  get faces() {
    if (this.listed !== null) return this.listed;
    if (this.fudge) return [-1, 0, 1];
    return Array.from({ length: this.sides }, (_, i) => i + 1);
  }

  /** The face of a die whose `randint(1, sides)` gave `rolled` (`minimum`
   * and `maximum` applied). */
  face(rolled) {
    if (this.listed !== null) return this.bounded(this.listed[rolled - 1]);
    return this.bounded(this.fudge ? rolled - 2 : rolled);
  }

  /** `face` raised to `minimum` and lowered to `maximum`. */
  bounded(face) {
    let found = face;
    if (this.minimum !== null && found < this.minimum) found = this.minimum;
    if (this.maximum !== null && found > this.maximum) found = this.maximum;
    return found;
  }

  /** The faces a die can show as rolled, `minimum` and `maximum` applied. */
  get shownFaces() {
    if (this.minimum === null && this.maximum === null) return this.faces;
    return this.faces.map((f) => this.bounded(f));
  }

  /** The highest face (the one that explodes, without `explodeAt`). */
  get top() {
    if (this.listed !== null) return Math.max(...this.shownFaces);
    return this.bounded(this.fudge ? 1 : this.sides);
  }

  /** Whether a die showing `face` explodes (with `explode`). */
  explodes(face) {
    return this.explodeAt === null ? face === this.top : this.explodeAt.meets(face);
  }

  /** The faces a die can show once rerolled. */
  finalFaces() {
    if (this.reroll === null || this.rerollOnce) return this.shownFaces;
    return this.shownFaces.filter((f) => !this.reroll.meets(f));
  }

  /** How many of `rolled` dice the pool keeps (all, without `keep`): keeping
   * more dice than are rolled keeps them all, and dropping more drops them
   * all (as Roll20 reads `1d6kh3`). */
  keeps(rolled) {
    if (this.keep === null) return rolled;
    if (this.keep === "kh" || this.keep === "kl") return Math.min(this.keepCount, rolled);
    return Math.max(rolled - this.keepCount, 0);
  }

  /** How many dice the pool keeps, not counting dice explosions add. */
  get kept() {
    return this.keeps(this.count);
  }

  toString() {
    let text = `${this.count}d${sidesText(this)}`;
    if (this.minimum !== null) text += `min${this.minimum}`;
    if (this.maximum !== null) text += `max${this.maximum}`;
    if (this.reroll !== null) {
      const token = this.rerollOnce ? "ro" : "rr";
      text += conditionsOf(this.reroll).map((c) => token + writtenCompare(c, "")).join("");
    }
    if (this.explode !== null) text += this.explode + explodeAtText(this);
    if (this.unique) text += "u";
    if (this.keep !== null) text += `${this.keep}${this.keepCount}`;
    if (this.target !== null) text += conditionText(this.target, "");
    if (this.failure !== null) text += conditionText(this.failure, "f");
    if (this.sort !== null) text += `s${this.sort}`;
    if (this.multiplier !== 1) text += `x${this.multiplier}`;
    return text;
  }
}

function conditionsOf(condition) {
  return condition instanceof AnyOf ? condition.conditions : [condition];
}

function isFudge1(listed) {
  return listed !== null && listed.length === FUDGE_1.length && listed.every((f, i) => f === FUDGE_1[i]);
}

const CONDITIONS = Object.freeze([
  ["reroll", "reroll"],
  ["explodeAt", "explode_at"],
  ["target", "target"],
  ["failure", "failure"],
]);

/** What is wrong with the pool's kind of die or the types of its options. */
function kindProblem(pool) {
  if (pool.fudge && pool.listed !== null && !isFudge1(pool.listed)) return "Fudge dice list no faces of their own";
  if (pool.fudge && pool.sides !== (pool.listed === null ? 3 : FUDGE_1.length)) return "Fudge dice have 3 sides";
  const optioned = Object.entries(DEFAULTS).some(
    ([name, plain]) => name !== "fudge" && name !== "listed" && pool[name] !== plain,
  );
  if (!pool.numeric && optioned) return "a die of symbols takes no option: its faces are read, not added";
  for (const [field, name] of CONDITIONS) {
    if (pool[field] !== null && !isCondition(pool[field])) return `${name} must be a Compare or an AnyOf`;
  }
  if (pool.explode !== null && !EXPLODES.includes(pool.explode)) return `explode is one of ${tuple(EXPLODES)}`;
  if (pool.keep !== null && !KEEPS.includes(pool.keep)) return `keep is one of ${tuple(KEEPS)}`;
  if (pool.sort !== null && !SORTS.includes(pool.sort)) return `sort is one of ${tuple(SORTS)}`;
  return null;
}

/** What is wrong with the pool's options together. */
function optionProblem(pool) {
  if (pool.explodeAt !== null && pool.explode === null) return "explode_at without explode";
  if (pool.failure !== null && pool.target === null) return spec.CHECKS.failure_needs_target;
  if (pool.minimum !== null && pool.maximum !== null && pool.minimum > pool.maximum) {
    return spec.CHECKS.minimum_above_maximum;
  }
  const changed = pool.reroll !== null || pool.explode !== null || pool.minimum !== null || pool.maximum !== null;
  if (pool.unique && changed) return spec.CHECKS.unique_alone;
  const final = pool.finalFaces();
  if (!final.length) return spec.CHECKS.never_stops;
  if (["!", "!!", "!p"].includes(pool.explode) && final.every((f) => pool.explodes(f))) {
    return spec.CHECKS.explodes_forever;
  }
  return null;
}

/** What is wrong with how many dice the pool rolls and keeps. */
function countProblem(pool) {
  const distinct = new Set(pool.faces).size;
  if (pool.unique && pool.count > distinct) {
    return spec.CHECKS.unique_faces.replace("{faces}", () => String(distinct));
  }
  if (pool.keep === null) return pool.keepCount === 0 ? null : "keep_count without keep";
  if (pool.keepCount < 1) {
    const words = spec.CHECKS.keep_none;
    return words.replace("{keep}", () => pool.keep).replace("{count}", () => String(pool.keepCount));
  }
  return null;
}

function sidesText(pool) {
  if (pool.fudge && pool.listed !== null) return "F.1";
  if (pool.fudge) return "F";
  if (pool.listed !== null) {
    return `[${pool.listed.map((f) => (typeof f === "number" ? String(f) : f.join("+"))).join(",")}]`;
  }
  return String(pool.sides);
}

/** A comparison as the notation writes it (`>` and `<` as `>=` and `<=` of
 * the next whole number; `=` as `plain` before the value). */
function writtenCompare(compare, plain) {
  const { op, value } = compare;
  if (op === ">") return `>=${value + 1}`;
  if (op === "<") return `<=${value - 1}`;
  // (-1 right after an option is the next term: a negative face is written =-1)
  return `${op === "=" && value >= 0 ? plain : op}${value}`;
}

/** A condition as the notation writes it, each comparison after `token`. */
export function conditionText(condition, token) {
  return conditionsOf(condition)
    .map((c) => token + writtenCompare(c, "="))
    .join("");
}

function explodeAtText(pool) {
  if (pool.explodeAt !== null) {
    return conditionsOf(pool.explodeAt)
      .map((c) => writtenCompare(c, "="))
      .join("!");
  }
  // (a target right after it would read as explode_at)
  if (pool.keep === null && !pool.unique && pool.target !== null) return `=${pool.top}`;
  return "";
}

/**
 * A die's own faces, checked: `sides` of them, all numbers or all arrays of
 * symbols (strings), frozen; equal faces of symbols are one array, so that a
 * face is the same value wherever it stands.
 */
function listedFaces(faces, sides) {
  if (!Array.isArray(faces)) {
    throw new RuleInputError(`a pool's listed faces must be a tuple, not ${shown(faces)}`);
  }
  if (faces.length !== sides) {
    throw new RuleInputError(`a pool of ${sides} sides lists ${faces.length} faces`);
  }
  const numbers = faces.every((f) => Number.isSafeInteger(f));
  const symbols = faces.every((f) => Array.isArray(f) && f.every((x) => typeof x === "string"));
  if (!numbers && !symbols) {
    throw new RuleInputError("a pool's listed faces are all ints, or all tuples of symbols (str)");
  }
  if (numbers) return Object.freeze([...faces]);
  const one = new Map();
  return Object.freeze(
    faces.map((f) => {
      const key = JSON.stringify(f);
      if (!one.has(key)) one.set(key, Object.freeze([...f]));
      return one.get(key);
    }),
  );
}


/** Whether `value` is a node of a dice expression: a safe integer, a
 * fraction that is not whole, or a value whose class binds (a pool, a sum,
 * a node of ./dice_tree.js). */
export function isNode(value) {
  if (value instanceof Value) return value.constructor.PRECEDENCE >= 0;
  return Number.isSafeInteger(value) || isFraction(value);
}

/** A node as a tree holds it: a whole fraction as a number. */
export function nodeOf(value) {
  if (!isFraction(value) || value.denominator !== 1n) return value;
  return int("a whole number", Number(value.numerator));
}

/** One term of a sum: any node of a dice expression; `sign` is 1 to add it, -1 to subtract it. */
export class Term extends Value {
  static FIELDS = Object.freeze([["sign", "sign"], ["value", "value"]]);

  constructor(sign, value) {
    super();
    if (sign !== 1 && sign !== -1) {
      throw new RuleInputError(`a term's sign is 1 or -1, not ${shown(sign)}`);
    }
    if (!isNode(value)) {
      throw new RuleInputError(
        `a term's value is a Pool, a number or a node of a dice expression, not ${shown(value)}`,
      );
    }
    this.sign = sign;
    this.value = nodeOf(value);
    Object.freeze(this);
  }
}

/** A value not below 0 as a decimal the notation reads, if it has one. */
function decimal(value) {
  let rest = value.denominator;
  let places = 0;
  for (const prime of [2n, 5n]) {
    let found = 0;
    while (rest % prime === 0n) {
      rest /= prime;
      found += 1;
    }
    places = Math.max(places, found);
  }
  if (rest !== 1n) return null;
  const digits = String((value.numerator * 10n ** BigInt(places)) / value.denominator).padStart(places + 1, "0");
  return places ? `${digits.slice(0, -places)}.${digits.slice(-places)}` : digits;
}

/** A number as the notation writes it: `3`, `1.5` (a fraction with no
 * decimal: `(1/3)`, which reads back as a division). */
export function numberText(value) {
  if (!isFraction(value)) return String(value);
  const negative = value.numerator < 0n;
  const found = decimal({ numerator: negative ? -value.numerator : value.numerator, denominator: value.denominator });
  if (found === null) return `(${fractionText(value)})`;
  return (negative ? "-" : "") + found;
}

function negativeNumber(value) {
  return isFraction(value) ? value.numerator < 0n : value < 0;
}

/** `node`'s text where the place needs a precedence of `need` or more (0: a
 * whole expression; 1: a term of a sum; 2: the left of `*` `/`; 3: an atom),
 * bracketed where it binds looser. */
export function written(node, need) {
  if (!(node instanceof Value)) {
    const text = numberText(node);
    return need && negativeNumber(node) ? `(${text})` : text;
  }
  const text = String(node);
  return node.constructor.PRECEDENCE < need ? `(${text})` : text;
}

/** Terms added and subtracted, in the order written. */
export class DiceSum extends Value {
  static FIELDS = Object.freeze([["terms", "terms"]]);
  static PRECEDENCE = 0;

  constructor(terms) {
    super();
    const found = frozenList(terms);
    if (found === null || !found.length || !found.every((t) => t instanceof Term)) {
      throw new RuleInputError("a dice sum has one term or more, each a Term");
    }
    this.terms = found;
    Object.freeze(this);
  }

  children() {
    return this.terms.map((t) => t.value);
  }

  /** Every pool of the expression, in the order written (depth first). */
  get pools() {
    return poolsIn(this);
  }

  toString() {
    if (this.terms.length === 1 && this.terms[0].sign > 0) return written(this.terms[0].value, 0);
    let text = "";
    this.terms.forEach((term, i) => {
      let { value } = term;
      let negative = term.sign < 0;
      if (!(value instanceof Value) && negativeNumber(value)) {
        value = isFraction(value) ? fraction(-value.numerator, value.denominator) : -value;
        negative = !negative;
      }
      text += (negative ? "-" : i ? "+" : "") + written(value, 1);
    });
    return text;
  }
}

/** The pools of a node, in the order written (depth first). */
export function poolsIn(node) {
  if (node instanceof Pool) return [node];
  if (!(node instanceof Value)) return [];
  return node.children().flatMap(poolsIn);
}
