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
import { AnyOf, Compare, DiceSum, FUDGE_1, Pool, Term } from "./dice_terms.js";
import { Binary, CALLS, Call, Group, Labeled, Test } from "./dice_tree.js";
import { RuleInputError } from "./errors.js";
import { MAX_ENTRIES, badBool, fraction, grouped, options, reprString, shown } from "./_support.js";

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
    this.depth = 0;
    this.hint = spec.HINT; // what a mistake here is told to write
  }

  get length() {
    return this.chars.length;
  }

  /** Skip spaces and tabs. */
  space() {
    while (this.peek() === " " || this.peek() === "\t") this.at += 1;
  }

  /** One level deeper into the expression (refused past MAX_TERMS levels). */
  enter() {
    this.depth += 1;
    if (this.depth > spec.MAX_TERMS) {
      throw this.fail(`more than ${spec.MAX_TERMS} levels of nesting`, this.at, "write the expression with fewer parentheses");
    }
  }

  leave() {
    this.depth -= 1;
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
  const found = readExpr(reader);
  reader.space();
  if (reader.at < reader.length) throw reader.unexpected();
  return found instanceof DiceSum ? found : new DiceSum([new Term(1, found)]);
}

/** A sum's node: its one term's value when that is added, else the sum. */
function unwrapped(sum) {
  return sum.terms.length === 1 && sum.terms[0].sign === 1 ? sum.terms[0].value : sum;
}

/** The comparison of totals starting here (after spaces), or null. */
function totalsOp(reader) {
  if (reader.peek(2) === "==") return ["=", 2];
  const op = spec.COMPARISONS.find((c) => reader.peek(c.length) === c);
  return op === undefined ? null : [op, op.length];
}

/** expr := sum [cmp sum]: a sum, or a test of two totals. */
function readExpr(reader) {
  const left = readSum(reader);
  reader.space();
  const op = totalsOp(reader);
  if (op === null) return left;
  reader.at += op[1];
  const right = readSum(reader);
  return new Test(op[0], unwrapped(left), unwrapped(right));
}

/** sum := ['+'|'-'] product (('+'|'-') product)* */
function readSum(reader) {
  const terms = [];
  reader.space();
  let sign = 1;
  if (reader.peek() === "-" || reader.peek() === "+") {
    sign = reader.peek() === "-" ? -1 : 1;
    reader.at += 1;
  }
  for (;;) {
    if (terms.length === spec.MAX_TERMS) {
      throw reader.fail(`more than ${spec.MAX_TERMS} terms`, reader.at, "add fewer terms");
    }
    terms.push(new Term(sign, readProduct(reader)));
    reader.space();
    if (reader.peek() !== "+" && reader.peek() !== "-") return new DiceSum(terms);
    sign = reader.peek() === "+" ? 1 : -1;
    reader.at += 1;
  }
}

/** product := unary (('*'|'/') unary)* */
function readProduct(reader) {
  let left = readUnary(reader);
  for (;;) {
    reader.space();
    const op = reader.peek();
    if (op === "%" || op === "^") throw notAnOperator(reader, op);
    if (op !== "*" && op !== "/") return left;
    if (reader.peek(2) === "**") throw notAnOperator(reader, "**");
    reader.at += 1;
    left = new Binary(op, left, readUnary(reader));
  }
}

/** An operator of other tools, refused where it stands. */
function notAnOperator(reader, op) {
  return reader.fail(`'${op}' is not an operator of the notation`, reader.at, spec.OPERATORS_HINT ?? OPERATORS);
}

const OPERATORS = "the notation has + - * / and floor ceil round abs max min";

/** unary := '-' unary | atom */
function readUnary(reader) {
  reader.space();
  if (reader.peek() !== "-") return readAtom(reader);
  reader.enter();
  reader.at += 1;
  const found = new DiceSum([new Term(-1, readUnary(reader))]);
  reader.leave();
  return found;
}

/** The function named here, when a `(` follows it. */
function functionAt(reader) {
  for (const name of Object.keys(CALLS)) {
    if (reader.peek(name.length + 1) === `${name}(`) return name;
  }
  return null;
}

/** atom := (NUMBER | pool | '(' expr ')' | FUNC '(' expr, ... ')' | group) [label] */
function readAtom(reader) {
  reader.space();
  reader.enter();
  const start = reader.at;
  const ch = reader.peek();
  let found;
  const name = functionAt(reader);
  if (name !== null) {
    reader.at += name.length + 1;
    found = readCall(reader, name, start);
  } else if (ch === "(") {
    reader.at += 1;
    found = unwrappedExpr(readExpr(reader));
    closing(reader, ")");
  } else if (ch === "{") {
    reader.at += 1;
    found = readGroup(reader, start);
  } else {
    found = readNumberOrPool(reader);
  }
  reader.leave();
  return readLabel(reader, found);
}

function unwrappedExpr(node) {
  return node instanceof DiceSum ? unwrapped(node) : node;
}

function closing(reader, ch) {
  reader.space();
  if (reader.peek() !== ch) throw reader.unexpected();
  reader.at += 1;
}

/** expr (',' expr)* and the closing `end`. */
function readList(reader, end) {
  const items = [unwrappedExpr(readExpr(reader))];
  reader.space();
  while (reader.peek() === ",") {
    reader.at += 1;
    items.push(unwrappedExpr(readExpr(reader)));
    reader.space();
  }
  closing(reader, end);
  return items;
}

function readCall(reader, name, start) {
  const args = readList(reader, ")");
  const [least, most] = CALLS[name];
  if (args.length < least || (most !== null && args.length > most)) {
    const many = most === least ? `${least}` : `${least} or more`;
    throw reader.fail(`${name} takes ${many} arguments, not ${args.length}`, start);
  }
  return new Call(name, args);
}

function readGroup(reader, start) {
  const items = readList(reader, "}");
  const found = readGroupOptions(reader, start);
  try {
    return new Group(items, found);
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    const cut = text.lastIndexOf(": ");
    throw reader.fail(cut < 0 ? text : text.slice(cut + 2), start);
  }
}

/** A group's options right after its `}`: keep or drop, target, failure. */
function readGroupOptions(reader, start) {
  const found = {};
  const places = new Map();
  for (;;) {
    const at = reader.at;
    const read = readForm(reader, GROUP_OPTIONS);
    if (read === null) return found;
    reader.hint = takes(reader.chars.slice(start, at).join(""), places, found);
    const option = readOption(reader, found, read);
    if (places.has(option.name)) throw reader.fail(spec.SECOND.replace("{noun}", option.noun), at);
    places.set(option.name, at);
    reader.hint = spec.HINT;
  }
}

const GROUP_OPTIONS = ["keep", "target", "failure"];

function readLabel(reader, node) {
  const at = reader.at;
  reader.space();
  if (reader.peek() !== "[") {
    reader.at = at;
    return node;
  }
  const open = reader.at;
  reader.at += 1;
  while (reader.at < reader.length && reader.peek() !== "]" && reader.peek() !== "\n" && reader.peek() !== "\r") {
    reader.at += 1;
  }
  if (reader.peek() !== "]") throw reader.fail("a label is not closed", open, "write the label in brackets: 1d20+5[STR]");
  const label = reader.chars.slice(open + 1, reader.at).join("");
  reader.at += 1;
  return new Labeled(node, label);
}

/** A number (`3`, `1.5`), or a pool (`3d6`, `d20`). */
function readNumberOrPool(reader) {
  const start = reader.at;
  const ch = reader.peek();
  if (ch === "%" || ch === "^") throw notAnOperator(reader, ch);
  const count = reader.number();
  if (reader.peek() !== "d") {
    if (count === null) throw reader.unexpected();
    return readDecimal(reader, count, start);
  }
  if (count !== null && count < 1) throw reader.fail("a pool needs at least one die", start);
  if (count !== null && count > MAX_ENTRIES) {
    throw reader.fail(`more than ${grouped(MAX_ENTRIES)} dice`, start, "roll fewer dice at once");
  }
  reader.at += 1;
  const pool = readPool(reader, count === null ? 1 : count, start);
  spacedOptions(reader, start);
  return pool;
}

/** `whole` and its decimals, if a `.` and digits follow: exact (1.5 is 3/2). */
function readDecimal(reader, whole, start) {
  if (reader.peek() !== "." || !/[0-9]/.test(reader.chars[reader.at + 1] ?? "")) return whole;
  reader.at += 1;
  const from = reader.at;
  while (reader.at < reader.length && /[0-9]/.test(reader.peek())) reader.at += 1;
  const digits = reader.chars.slice(from, reader.at).join("");
  if (digits.length > spec.MAX_DIGITS) throw reader.fail(`a number has more than ${spec.MAX_DIGITS} digits`, from);
  const value = fraction(BigInt(whole) * 10n ** BigInt(digits.length) + BigInt(digits), 10n ** BigInt(digits.length));
  void start;
  return value.denominator === 1n ? Number(value.numerator) : value;
}

/** A pool's option written after a space (`4d6 kh3`): refused, its text told. */
function spacedOptions(reader, start) {
  const at = reader.at;
  reader.space();
  if (reader.at === at || reader.at >= reader.length) {
    reader.at = at;
    return;
  }
  const read = readForm(reader, null);
  if (read === null || (!read.form?.token && !read.refused)) {
    reader.at = at;
    return;
  }
  const pool = reader.chars.slice(start, at).join("");
  const rest = reader.chars.slice(reader.at).join("").split(/[\s+\-*/)]/)[0];
  throw reader.fail("a space inside a pool's options", reader.at, `write the options right after the sides: ${pool}${rest}`);
}

function readPool(reader, count, start) {
  let fudge = false;
  let listed = null;
  let sides;
  const sidesAt = reader.at;
  if (reader.peek() === "%") {
    sides = 100;
    reader.at += 1;
  } else if (reader.peek() === "F") {
    fudge = true;
    sides = 3;
    reader.at += 1;
    if (reader.peek() === "." && /[0-9]/.test(reader.chars[reader.at + 1] ?? "")) {
      const kind = reader.peek(2);
      if (kind !== ".1" && kind !== ".2") {
        throw reader.fail(`Fudge dice are dF, dF.1 or dF.2, not dF${kind}`, reader.at + 1, "write dF.1 (one -1 and one +1 among six faces) or dF.2 (the same as dF)");
      }
      reader.at += 2;
      if (kind === ".1") {
        sides = FUDGE_1.length;
        listed = FUDGE_1;
      }
    }
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
  for (;;) {
    const at = reader.at;
    const read = readForm(reader, null);
    if (read === null) break;
    reader.hint = takes(reader.chars.slice(start, at).join(""), places, found);
    const before = found.reroll ?? null;
    const option = readOption(reader, found, read);
    if (places.has(option.name)) {
      if (option.name !== "reroll") throw reader.fail(spec.SECOND.replace("{noun}", option.noun), at);
      found.reroll = new AnyOf([...before.conditions, found.reroll]);
    } else {
      places.set(option.name, at);
    }
  }
  reader.hint = spec.HINT;
  try {
    return new Pool(count, sides, { fudge, ...(listed === null ? {} : { listed }), ...found });
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

/** The option written here, of the options `names` (null: a pool's): the
 * longest token that matches (a refused token too), else a form without a
 * token whose argument starts here; null where none does. */
function readForm(reader, names) {
  let found = null;
  let longest = 0;
  const options = spec.OPTIONS.filter((o) => names === null || names.includes(o.name));
  for (const option of options) {
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
  for (const option of options) {
    for (const form of option.forms) {
      if (!form.token && option.argument.shape === "compare") return { option, form };
    }
  }
  return null;
}

/** Read the option `read` found here into `found`; answer it. */
function readOption(reader, found, read) {
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
