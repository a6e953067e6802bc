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
 * culprit, counted in code points as Python counts characters. The options
 * (tokens, arguments, defaults, checks) and the words of hints and refusals
 * are data: ./_dice_spec.js, printed from the notation's one definition (the
 * Python runtime's parser reads the same).
 */

import * as spec from "./_dice_spec.js";
import { DiceSyntaxError } from "./dice.js";
import { Compare, DiceSum, Pool, Term } from "./dice_terms.js";
import { RuleInputError } from "./errors.js";
import { MAX_ENTRIES, badBool, grouped, options, reprString, shown } from "./_support.js";

/** The most terms one expression adds up. */
export const MAX_TERMS = spec.MAX_TERMS;
const NUMERIC = /\p{N}/u;

/** The text (as code points) and the place reading has got to. */
class Reader {
  constructor(text, bareD6) {
    this.text = text;
    this.chars = [...text];
    this.at = 0;
    this.bareD6 = bareD6;
    this.hint = spec.HINT; // what a mistake here is told to write
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
    if (digits.length > spec.MAX_DIGITS) {
      throw this.fail(`a number has more than ${spec.MAX_DIGITS} digits`, start);
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
    if (terms.length === spec.MAX_TERMS) {
      throw reader.fail(`more than ${spec.MAX_TERMS} terms`, reader.at, "add fewer terms");
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
    const option = readOption(reader, found);
    if (places.has(option.name)) throw reader.fail(spec.SECOND.replace("{noun}", option.noun), at);
    places.set(option.name, at);
  }
  reader.hint = spec.HINT;
  try {
    return new Pool(count, sides, { fudge, ...found });
  } catch (error) {
    // the pool's own checks: point at the option
    const text = error instanceof Error ? error.message : String(error);
    const cut = text.indexOf(": ");
    const message = (cut < 0 ? "" : text.slice(cut + 2)) || text;
    const where = culprit(message, places, sidesAt);
    const hint = spec.REFUSAL_HINTS.find(([word]) => message.includes(word));
    throw reader.fail(message, where, hint === undefined ? spec.HINT : hint[1]);
  }
}

/** Which options a pool takes after `written` (its text so far), the options
 * `used` already written: a hint where one is refused. */
function takes(written, used, found) {
  const free = [];
  for (const option of spec.OPTIONS) {
    const hidden = Object.entries(option.hiddenWhen).some(([field, values]) =>
      values.includes(found[field]),
    );
    if (used.has(option.name) || hidden) continue;
    const after = Object.entries(option.takesAfter).find(([name]) => used.has(name));
    free.push(after === undefined ? option.takes : after[1]);
  }
  if (!free.length) return spec.NO_MORE_OPTIONS.replace("{written}", () => written);
  return spec.MORE_OPTIONS.replace("{written}", () => written).replace("{options}", () => free.join("; "));
}

function culprit(message, places, sidesAt) {
  for (const [word, name] of spec.CULPRITS) {
    if (message.includes(word) && places.has(name)) return places.get(name);
  }
  return sidesAt;
}

function startsCompare(reader) {
  return spec.COMPARISONS.some((op) => reader.peek(op.length) === op);
}

/** The option written here: the longest token that matches (a refused token
 * too), else a form without a token whose argument starts here. */
function readForm(reader) {
  let found = null;
  let longest = 0;
  for (const option of spec.OPTIONS) {
    for (const form of option.forms) {
      const token = form.token;
      if (token.length > longest && reader.peek(token.length) === token) {
        found = { option, form };
        longest = token.length;
      }
    }
  }
  for (const refused of spec.REFUSED) {
    if (refused.token.length > longest && reader.peek(refused.token.length) === refused.token) {
      found = { refused };
      longest = refused.token.length;
    }
  }
  if (found !== null || !startsCompare(reader)) return found;
  for (const option of spec.OPTIONS) {
    for (const form of option.forms) {
      if (!form.token && option.argument.shape === "compare") return { option, form };
    }
  }
  return null;
}

/** Read one option of a pool into `found`; answer it. */
function readOption(reader, found) {
  const read = readForm(reader);
  if (read === null) throw reader.unexpected();
  if (read.refused) throw reader.fail(read.refused.message, reader.at, read.refused.hint);
  const { option, form } = read;
  reader.at += [...form.token].length;
  Object.assign(found, form.sets);
  const argument = option.argument;
  if (argument.shape === "compare") {
    if (!argument.optional || startsCompare(reader)) {
      found[argument.field] = readCompare(reader, argument.op, argument.what);
    }
    return option;
  }
  const at = reader.at;
  let value;
  if (argument.default !== null) {
    value = reader.number();
    if (value === null) value = argument.default;
  } else {
    value = reader.needed(argument.what);
  }
  if (argument.least !== null && value < argument.least) throw reader.fail(argument.belowLeast, at);
  found[argument.field] = value;
  return option;
}

function readCompare(reader, fallback, what) {
  let op = fallback;
  for (const candidate of spec.COMPARISONS) {
    if (reader.peek(candidate.length) === candidate) {
      op = candidate;
      break;
    }
  }
  if (op === null) throw reader.unexpected();
  if (reader.peek(op.length) === op) reader.at += op.length;
  return new Compare(op, reader.signed(what));
}
