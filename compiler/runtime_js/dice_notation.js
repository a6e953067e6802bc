/**
 * Dice notation: the text of the common games' dice read into a `DiceSum`,
 * with located errors (the JavaScript twin of the Python runtime's
 * dice_notation.py; it reads what Python reads and refuses with the same
 * message, offset and hint).
 *
 * What it reads (no spaces), terms added with `+` and subtracted with `-`: a
 * whole number; a pool `NdX` (`d20` is `1d20`, `d%` is `d100`, `dF` a Fudge
 * die; with `bareD6` (GURPS) `3d` is `3d6`), then, in any order, each at most
 * once: `r1`, `r<3` (reroll once; `ro` the same), `rr1` (again while it shows
 * it); `!`, `!!`, `!o` (explode; a comparison right after it, `!>=9`, sets
 * the faces that explode); `khN`, `klN`, `dhN`, `dlN` (keep or drop);
 * `>=N`, `>N`, `<=N`, `<N`, `=N` (count the dice that meet it); `xM` (`*M`,
 * the pool's value times M).
 *
 * A mistake throws `DiceSyntaxError` (./dice.js) with the offset of the
 * culprit, counted in code points as Python counts characters.
 */

import { DiceSyntaxError } from "./dice.js";
import { COMPARISONS, EXPLODES, KEEPS, Compare, DiceSum, Pool, Term } from "./dice_terms.js";
import { RuleInputError } from "./errors.js";
import { MAX_ENTRIES, badBool, grouped, options, reprString, shown } from "./_support.js";

/** The most terms one expression adds up. */
export const MAX_TERMS = 100;
const MAX_DIGITS = 15;
const HINT =
  "write NdS with optional r, !, kh/kl/dh/dl, a target such as >=5 and xM, " +
  "added to or subtracted from others and whole numbers (e.g. 4d6kh3, 2d6x10+5, " +
  "d20-1, 6d6>=5)";
const NUMERIC = /\p{N}/u;

/** The text (as code points) and the place reading has got to. */
class Reader {
  constructor(text, bareD6) {
    this.text = text;
    this.chars = [...text];
    this.at = 0;
    this.bareD6 = bareD6;
    this.hint = HINT; // what a mistake here is told to write
  }

  get length() {
    return this.chars.length;
  }

  peek(length = 1) {
    return this.chars.slice(this.at, this.at + length).join("");
  }

  fail(message, offset, hint = null) {
    return new DiceSyntaxError(
      `bad dice expression ${reprString(this.text)}: ${message}`,
      offset,
      hint === null ? this.hint : hint,
    );
  }

  unexpected(offset = null) {
    const at = offset === null ? this.at : offset;
    const found = at < this.length ? reprString(this.chars[at]) : "the end";
    return this.fail(`unexpected ${found}`, at);
  }

  number() {
    const start = this.at;
    while (this.at < this.length && this.chars[this.at] >= "0" && this.chars[this.at] <= "9") {
      this.at += 1;
    }
    const digits = this.chars.slice(start, this.at).join("");
    if (!digits) return null;
    if (digits.length > MAX_DIGITS) {
      throw this.fail(`a number has more than ${MAX_DIGITS} digits`, start);
    }
    if (digits.length > 1 && digits[0] === "0") throw this.fail("a number starts with 0", start);
    return Number(digits);
  }

  needed(what) {
    const value = this.number();
    if (value === null) throw this.fail(`${what} is missing`, this.at);
    return value;
  }

  signed(what) {
    const negative = this.peek() === "-";
    if (negative) this.at += 1;
    const value = this.needed(what);
    return negative ? -value : value;
  }
}

/**
 * Read `text` (see the module's doc) into a `DiceSum`; `DiceSyntaxError`
 * where it goes wrong (a RuleInputError, which it is too, for a `text` that
 * is no string). Options: `bareD6` (GURPS's `3d`).
 */
export function parseNotation(text, given = undefined) {
  if (typeof text !== "string") {
    throw new RuleInputError(`text must be a string, not ${shown(text)}`);
  }
  const { bareD6 = false } = options(given, ["bareD6"], "parseNotation");
  if (typeof bareD6 !== "boolean") throw badBool(bareD6, "bareD6");
  const reader = new Reader(text, bareD6);
  reader.chars.forEach((ch, offset) => {
    const code = ch.codePointAt(0);
    if (code > 0x7f && NUMERIC.test(ch)) {
      throw new DiceSyntaxError(
        `bad dice expression ${reprString(text)}: ${reprString(ch)} is not an ASCII digit ` +
          `(U+${code.toString(16).toUpperCase().padStart(4, "0")})`,
        offset,
        "write the number with the digits 0 to 9",
      );
    }
  });
  const terms = [];
  let sign = 1;
  if (reader.peek() === "-") {
    sign = -1;
    reader.at = 1;
  }
  for (;;) {
    if (terms.length === MAX_TERMS) {
      throw reader.fail(`more than ${MAX_TERMS} terms`, reader.at, "add fewer terms");
    }
    terms.push(new Term(sign, readTerm(reader)));
    if (reader.at === reader.length) return new DiceSum(terms);
    if (reader.peek() !== "+" && reader.peek() !== "-") throw reader.unexpected();
    sign = reader.peek() === "+" ? 1 : -1;
    reader.at += 1;
  }
}

function readTerm(reader) {
  const start = reader.at;
  const count = reader.number();
  if (reader.peek() !== "d") {
    if (count === null) throw reader.unexpected();
    return count;
  }
  if (count !== null && count < 1) throw reader.fail("a pool needs at least one die", start);
  if (count !== null && count > MAX_ENTRIES) {
    throw reader.fail(`more than ${grouped(MAX_ENTRIES)} dice`, start, "roll fewer dice at once");
  }
  reader.at += 1;
  return readPool(reader, count === null ? 1 : count, start);
}

const NAMES = {
  reroll: "reroll",
  explode: "explosion",
  keep: "keep or drop",
  target: "target",
  multiplier: "multiplier",
};

function readPool(reader, count, start) {
  let fudge = false;
  let sides;
  const sidesAt = reader.at;
  if (reader.peek() === "%") {
    sides = 100;
    reader.at += 1;
  } else if (reader.peek() === "F") {
    fudge = true;
    sides = 3;
    reader.at += 1;
  } else {
    const found = reader.number();
    if (found === null && !reader.bareD6) {
      throw reader.fail(
        "the die's sides are missing",
        reader.at,
        "write the sides after the d, e.g. 3d6, d%, dF (only GURPS notation allows a bare Nd)",
      );
    }
    sides = found === null ? 6 : found;
    if (sides < 1) throw reader.fail("a die needs at least one side", sidesAt);
    if (sides > MAX_ENTRIES) {
      throw reader.fail(`a die has at most ${grouped(MAX_ENTRIES)} sides`, sidesAt, "use fewer sides");
    }
  }
  const found = {};
  const places = new Map();
  while (reader.at < reader.length && reader.peek() !== "+" && reader.peek() !== "-") {
    const at = reader.at;
    reader.hint = takes(reader.chars.slice(start, at).join(""), places, found);
    const name = readOption(reader, found);
    if (places.has(name)) throw reader.fail(`a second ${NAMES[name]}`, at);
    places.set(name, at);
  }
  reader.hint = HINT;
  try {
    return new Pool(count, sides, { fudge, ...found });
  } catch (error) {
    // the pool's own checks: point at the option
    const text = error instanceof Error ? error.message : String(error);
    const cut = text.indexOf(": ");
    const message = (cut < 0 ? "" : text.slice(cut + 2)) || text;
    const where = culprit(message, places, sidesAt);
    const hint = message.includes("keep or drop")
      ? "write !! to add the new dice into their die, then keep or drop"
      : HINT;
    throw reader.fail(message, where, hint);
  }
}

const TAKES = [
  ["reroll", "r1 or r<3 (reroll once), rr1 (reroll while it shows it)"],
  ["explode", "!, !! or !o (explode; !>=9: on 9 or more)"],
  ["keep", "kh1, kl1, dh1 or dl1 (keep or drop)"],
  ["target", ">=5, >5, <=2, <2 or =6 (count the dice that meet it)"],
  ["multiplier", "x2 (multiply the value)"],
];
const COMPOUNDS = "!! (explode, adding into the die)";

/** Which options a pool takes after `written` (its text so far), the options
 * `used` already written: a hint where one is refused. */
function takes(written, used, found) {
  let free = TAKES.filter(([name]) => !used.has(name)).map(([, text]) => text);
  if (found.explode === "!" || found.explode === "!o") {
    free = free.filter((text) => !text.startsWith("kh")); // they add dice: no keep
  }
  if (used.has("keep") && !used.has("explode")) {
    free = free.map((text) => (text.startsWith("!") ? COMPOUNDS : text));
  }
  if (!free.length) return `after '${written}' a pool takes no more options: write + or - and another term`;
  return `after '${written}' a pool takes, each once and in any order: ${free.join("; ")}; then + or - and another term`;
}

const CULPRITS = [
  ["keep", "keep"],
  ["drop", "keep"],
  ["kh", "keep"],
  ["kl", "keep"],
  ["dh", "keep"],
  ["dl", "keep"],
  ["explodes", "explode"],
  ["rerolled", "reroll"],
];

function culprit(message, places, sidesAt) {
  for (const [word, name] of CULPRITS) {
    if (message.includes(word) && places.has(name)) return places.get(name);
  }
  return sidesAt;
}

/** Read one option of a pool into `found`; answer its name. */
function readOption(reader, found) {
  const at = reader.at;
  const ch = reader.peek();
  if (ch === "r") {
    reader.at += 1;
    const again = reader.peek() === "r";
    if (again || reader.peek() === "o") reader.at += 1;
    found.reroll = readCompare(reader, "=", "the face to reroll");
    found.rerollOnce = !again;
    return "reroll";
  }
  if (ch === "!") {
    const explode = EXPLODES.find((e) => reader.peek(e.length) === e);
    found.explode = explode;
    reader.at += explode.length;
    const next = reader.peek();
    if (next === "<" || next === ">" || next === "=") {
      found.explodeAt = readCompare(reader, null, "the face that explodes");
    }
    return "explode";
  }
  const two = reader.peek(2);
  if (KEEPS.includes(two) || ch === "k") {
    const keep = KEEPS.includes(two) ? two : "kh";
    reader.at += KEEPS.includes(two) ? 2 : 1;
    const count = reader.number();
    found.keep = keep;
    found.keepCount = count === null ? 1 : count;
    return "keep";
  }
  if ("<>=".includes(ch)) {
    found.target = readCompare(reader, null, "the target");
    return "target";
  }
  if (ch === "x" || ch === "*") {
    reader.at += 1;
    const multiplier = reader.needed("the multiplier");
    if (multiplier < 1) throw reader.fail("the multiplier must be 1 or more", at + 1);
    found.multiplier = multiplier;
    return "multiplier";
  }
  if (ch === "d") {
    throw reader.fail(
      "'d' after a pool's sides",
      at,
      "write dl1 or dh1 to drop dice, or + for another pool",
    );
  }
  throw reader.unexpected();
}

function readCompare(reader, fallback, what) {
  let op = fallback;
  for (const candidate of COMPARISONS) {
    if (reader.peek(candidate.length) === candidate) {
      op = candidate;
      break;
    }
  }
  if (op === null) throw reader.unexpected();
  if (reader.peek(op.length) === op) reader.at += op.length;
  return new Compare(op, reader.signed(what));
}
