/**
 * Dice terms: pools that reroll, explode, keep and count, and sums of them
 * (the JavaScript twin of the Python runtime's dice_terms.py).
 *
 * The values the dice notation (./dice_notation.js) reads: a `Pool` of
 * `count` dice of `sides` (or Fudge dice, -1/0/+1), each die rerolled (`r`,
 * `rr`) and exploded (`!`, `!!`, `!o`) as it is rolled; then the pool keeps or
 * drops its highest or lowest dice (`kh`, `kl`, `dh`, `dl`) and either sums the
 * dice it keeps or counts those that meet a target (`>=5`); the pool's value
 * is multiplied by `multiplier`. A `DiceSum` adds and subtracts pools and
 * whole numbers. ./dice_rolls.js rolls them, ./dice_odds.js works out their
 * exact odds. Each is frozen; its JSON (`dumps`, `toDict`) is the Python
 * runtime's, snake_case keys and all.
 */

import * as spec from "./_dice_spec.js";
import { RuleInputError } from "./errors.js";
import { toData } from "./json.js";
import { options, shown } from "./_support.js";

/** The comparisons, in the order read (the dice spec's). */
export const COMPARISONS = spec.COMPARISONS;
/** `!`: a die at its highest face rolls one more die, again while the new one
 * shows its highest (each new die a die of the pool); `!!` the same, the new
 * dice added into the one die (compounding); `!o`: one more die at most. */
export const EXPLODES = Object.freeze(["!!", "!o", "!"]);
export const KEEPS = Object.freeze(["kh", "kl", "dh", "dl"]);

/** Python's repr of a tuple of strings, for messages alike in both runtimes. */
function tuple(items) {
  return `(${items.map((i) => `'${i}'`).join(", ")})`;
}

/**
 * A value compared and shown by its fields: `static FIELDS` pairs of
 * (JavaScript name, name in the JSON).
 */
export class Value {
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

  toString() {
    return `${this.op}${this.value}`;
  }
}

/**
 * `count` dice of `sides` (Fudge dice when `fudge`), rolled, kept, summed or
 * counted. `reroll`: a die whose face meets it is rolled again (the new face
 * stands when `rerollOnce`, else again while it meets it). `explode`: see
 * `EXPLODES`; `explodeAt`: the faces that explode (null: the highest). `keep`, `keepCount`: the dice the pool keeps (`kh3`: the 3
 * highest; `dl1`: all but the lowest; a count above the dice keeps, or drops,
 * them all). `target`: the pool counts the kept dice
 * that meet it instead of summing them.
 */
export class Pool extends Value {
  static FIELDS = Object.freeze([
    ["count", "count"],
    ["sides", "sides"],
    ["fudge", "fudge"],
    ["reroll", "reroll"],
    ["rerollOnce", "reroll_once"],
    ["explode", "explode"],
    ["explodeAt", "explode_at"],
    ["keep", "keep"],
    ["keepCount", "keep_count"],
    ["target", "target"],
    ["multiplier", "multiplier"],
    ["listed", "listed"],
  ]);

  constructor(count, sides, given = undefined) {
    super();
    const {
      fudge = false,
      reroll = null,
      rerollOnce = false,
      explode = null,
      explodeAt = null,
      keep = null,
      keepCount = 0,
      target = null,
      multiplier = 1,
      listed = null,
    } = options(
      given,
      ["fudge", "reroll", "rerollOnce", "explode", "explodeAt", "keep", "keepCount", "target", "multiplier", "listed"],
      "Pool",
    );
    this.count = int("a pool's count", count, 1);
    this.sides = int("a pool's sides", sides, 1);
    this.fudge = fudge === true;
    this.listed = listed === null ? null : listedFaces(listed, this.sides);
    this.reroll = reroll;
    this.rerollOnce = rerollOnce === true;
    this.explode = explode;
    const highest =
      this.numeric && explodeAt instanceof Compare && explodeAt.op === "=" && explodeAt.value === this.top;
    this.explodeAt = highest ? null : explodeAt; // the highest face: the same as none
    this.keep = keep;
    this.keepCount = int("a pool's keep_count", keepCount, 0);
    this.target = target;
    this.multiplier = int("a pool's multiplier", multiplier, 1);
    const problem = this.problem();
    if (problem !== null) throw new RuleInputError(`${this}: ${problem}`);
    Object.freeze(this);
  }

  /** Why the pool cannot be rolled, or null (the parser's checks, again). */
  problem() {
    if (this.fudge && this.sides !== 3) return "Fudge dice have 3 sides";
    if (this.fudge && this.listed !== null) return "Fudge dice list no faces of their own";
    if (
      !this.numeric &&
      (this.reroll !== null ||
        this.explode !== null ||
        this.keep !== null ||
        this.target !== null ||
        this.multiplier !== 1)
    ) {
      return "a die of symbols takes no option: its faces are read, not added";
    }
    if (this.reroll !== null && !(this.reroll instanceof Compare)) {
      return "reroll must be a Compare";
    }
    if (this.target !== null && !(this.target instanceof Compare)) {
      return "target must be a Compare";
    }
    if (this.explode !== null && !EXPLODES.includes(this.explode)) {
      return `explode is one of ${tuple(EXPLODES)}`;
    }
    if (this.explodeAt !== null && !(this.explodeAt instanceof Compare)) {
      return "explode_at must be a Compare";
    }
    if (this.explodeAt !== null && this.explode === null) return "explode_at without explode";
    if (this.keep !== null && !KEEPS.includes(this.keep)) return `keep is one of ${tuple(KEEPS)}`;
    const final = this.finalFaces();
    if (!final.length) return spec.CHECKS.never_stops;
    if ((this.explode === "!" || this.explode === "!!") && final.every((f) => this.explodes(f))) {
      return spec.CHECKS.explodes_forever;
    }
    if (this.keep === null) return this.keepCount === 0 ? null : "keep_count without keep";
    if (this.explode === "!" || this.explode === "!o") {
      return spec.CHECKS.keep_adds_dice;
    }
    if (this.keepCount < 1) {
      const words = spec.CHECKS.keep_none;
      return words.replace("{keep}", () => this.keep).replace("{count}", () => String(this.keepCount));
    }
    return null;
  }

  /** Whether its faces are numbers (not a die of symbols). */
  get numeric() {
    return this.listed === null || this.listed.every((f) => typeof f === "number");
  }

  /** The faces of one die, in order of `randint(1, sides)`'s answers (a die
   * of symbols: its arrays of symbols, one array for each distinct face). */
  get faces() {
    if (this.listed !== null) return this.listed;
    if (this.fudge) return [-1, 0, 1];
    return Array.from({ length: this.sides }, (_, i) => i + 1);
  }

  /** The face of a die whose `randint(1, sides)` gave `rolled`. */
  face(rolled) {
    if (this.listed !== null) return this.listed[rolled - 1];
    return this.fudge ? rolled - 2 : rolled;
  }

  /** The highest face (the one that explodes, without `explodeAt`). */
  get top() {
    if (this.listed !== null) return Math.max(...this.faces);
    return this.fudge ? 1 : this.sides;
  }

  /** Whether a die showing `face` explodes (with `explode`). */
  explodes(face) {
    return this.explodeAt === null ? face === this.top : this.explodeAt.meets(face);
  }

  /** The faces a die can show once rerolled. */
  finalFaces() {
    if (this.reroll === null || this.rerollOnce) return this.faces;
    return this.faces.filter((f) => !this.reroll.meets(f));
  }

  /** How many dice the pool keeps (all, without `keep`; not counting dice
   * that `!` adds): keeping more dice than are rolled keeps them all, and
   * dropping more drops them all (as Roll20 reads `1d6kh3`). */
  get kept() {
    if (this.keep === "kh" || this.keep === "kl") return Math.min(this.keepCount, this.count);
    return Math.max(this.count - this.keepCount, 0);
  }

  toString() {
    let text = `${this.count}d${this.fudge ? "F" : this.sides}`;
    if (this.listed !== null) {
      const shown = this.listed.map((f) => (typeof f === "number" ? String(f) : f.join("+")));
      text = `${this.count}d[${shown.join(",")}]`;
    }
    if (this.reroll !== null) text += `${this.rerollOnce ? "ro" : "rr"}${written(this.reroll, "")}`;
    if (this.explode !== null) text += this.explode;
    if (this.explodeAt !== null) text += written(this.explodeAt, "=");
    // (a target right after it would read as explodeAt)
    else if (this.explode !== null && this.keep === null && this.target !== null) text += `=${this.top}`;
    if (this.keep !== null) text += `${this.keep}${this.keepCount}`;
    if (this.target !== null) text += written(this.target, "=");
    if (this.multiplier !== 1) text += `x${this.multiplier}`;
    return text;
  }
}

/** A comparison as the notation writes it: `>`, `<` as `>=`, `<=` of the next whole number. */
function written(compare, plain) {
  const { op, value } = compare;
  if (op === ">") return `>=${value + 1}`;
  if (op === "<") return `<=${value - 1}`;
  return `${op === "=" ? plain : op}${value}`;
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

/** One term of a sum: a pool or a whole number; `sign` is 1 to add it, -1 to subtract it. */
export class Term extends Value {
  static FIELDS = Object.freeze([["sign", "sign"], ["value", "value"]]);

  constructor(sign, value) {
    super();
    if (sign !== 1 && sign !== -1) {
      throw new RuleInputError(`a term's sign is 1 or -1, not ${shown(sign)}`);
    }
    if (!(value instanceof Pool)) int("a term's value", value);
    this.sign = sign;
    this.value = value;
    Object.freeze(this);
  }
}

/** Pools and whole numbers added and subtracted, in the order written. */
export class DiceSum extends Value {
  static FIELDS = Object.freeze([["terms", "terms"]]);

  constructor(terms) {
    super();
    let found = null;
    try {
      found = Object.freeze([...terms]);
    } catch {
      found = null;
    }
    if (found === null || !found.length || !found.every((t) => t instanceof Term)) {
      throw new RuleInputError("a dice sum has one term or more, each a Term");
    }
    this.terms = found;
    Object.freeze(this);
  }

  /** The sum's pools, in order. */
  get pools() {
    return this.terms.filter((t) => t.value instanceof Pool).map((t) => t.value);
  }

  toString() {
    let text = "";
    this.terms.forEach((term, i) => {
      let written = String(term.value);
      if (term.sign < 0 || written.startsWith("-")) {
        const minus = written.startsWith("-");
        if (minus) written = written.slice(1);
        const negative = term.sign < 0 !== minus;
        if (i || negative) text += negative ? "-" : "+";
      } else if (i) {
        text += "+";
      }
      text += written;
    });
    return text;
  }
}
