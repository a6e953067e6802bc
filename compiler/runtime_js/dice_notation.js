/**
 * Dice notation: the text players type into dice rollers read into a
 * `DiceSum`, with located errors (the JavaScript twin of the Python runtime's
 * dice_notation.py; it reads what Python reads and refuses with the same
 * message, offset and hint).
 *
 * The grammar (whitespace may stand between tokens, never inside a pool's or
 * a group's options):
 *
 *     expr    := sum [cmp sum]          a comparison of totals: 1 when it holds, else 0
 *     sum     := ['+'|'-'] product (('+'|'-') product)*
 *     product := unary (('*'|'/') unary)*          / divides exactly
 *     unary   := '-' unary | atom
 *     atom    := (NUMBER | pool | '(' expr ')' | FUNC '(' expr (',' expr)* ')' | group) [label]
 *     group   := '{' expr (',' expr)* '}' options  (keep/drop, target, failure)
 *     pool    := [COUNT] 'd' SIDES options         (SIDES: digits, %, F, F.1, F.2)
 *     label   := '[' text ']'                      (shown only)
 *
 * `FUNC` is `floor`, `ceil`, `round` (half up), `abs`, `max` or `min`; a
 * `NUMBER` may have decimals (`1.5` is exactly 3/2). A comparison written
 * right after a pool's (or group's) options, with no space, is its target
 * (`6d6>=5` counts dice); anywhere else it compares totals (`6d6 >= 5`). A
 * pool's options, in any order, each once (several `r` make one condition):
 * `min`/`max` per die, `r`/`rr` (reroll until), `ro` (once), `!`, `!!`, `!p`,
 * `!o` (explode), `u` (unique), `kh`/`kl`/`dh`/`dl`/`k`/`d` (keep, drop), a
 * target `>=N`, `<=N`, `=N`, failures `fN`, `s`/`sa`/`sd` (sort), `xM` (times
 * M). With `bareD6` (GURPS) `3d` is `3d6`. `>N`/`<N` in an option, `cs`,
 * `cf`, `%`, `^` and `**` are refused: other tools read them otherwise.
 *
 * A mistake throws `DiceSyntaxError` (./dice.js) with the offset of the
 * culprit, counted in code points as Python counts characters. The options
 * (tokens, arguments, defaults, checks) and the words of hints and refusals
 * are data: ./_dice_spec.js, printed from the notation's one definition (the
 * Python runtime's parser reads the same); ./_notation_pool.js reads a
 * pool's and a group's options from it.
 */

import * as spec from "./_dice_spec.js";
import { DiceSyntaxError } from "./dice.js";
import { groupOptions, readPool } from "./_notation_pool.js";
import { Reader, SPACES, isDigit, words } from "./_notation_reader.js";
import { DiceSum, Term } from "./dice_terms.js";
import { Binary, CALLS, Call, Labeled, Test } from "./dice_tree.js";
import { RuleInputError } from "./errors.js";
import { MAX_ENTRIES, badBool, fraction, grouped, options, reprString, shown } from "./_support.js";

/** The most terms one sum adds up. */
export const MAX_TERMS = spec.MAX_TERMS;
const NUMERIC = /\p{N}/u;
const TOTALS = Object.freeze([
  ["==", "="],
  [">=", ">="],
  ["<=", "<="],
  [">", ">"],
  ["<", "<"],
  ["=", "="],
]);

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
  const node = readExpr(reader);
  reader.skip();
  if (reader.at < reader.length) throw reader.stray();
  return node instanceof DiceSum ? node : new DiceSum([new Term(1, node)]);
}

function totalOp(reader) {
  return TOTALS.find(([written]) => reader.peek(written.length) === written) ?? null;
}

/** expr := sum [cmp sum] */
function readExpr(reader) {
  const left = readSum(reader);
  reader.skip();
  const found = totalOp(reader);
  if (found === null) return left;
  reader.at += found[0].length;
  const right = readSum(reader);
  reader.skip();
  if (totalOp(reader) !== null) {
    throw reader.fail(words("second_comparison"), reader.at, words("second_comparison_hint"));
  }
  return new Test(found[1], left, right);
}

/** sum := ['+'|'-'] product (('+'|'-') product)*; one term added: its node. */
function readSum(reader) {
  reader.skip();
  const terms = [];
  let sign = 1;
  if (reader.peek() === "+" || reader.peek() === "-") {
    sign = reader.peek() === "-" ? -1 : 1;
    reader.at += 1;
  }
  for (;;) {
    if (terms.length === spec.MAX_TERMS) {
      throw reader.fail(`more than ${spec.MAX_TERMS} terms`, reader.at, "add fewer terms");
    }
    terms.push(new Term(sign, readProduct(reader)));
    reader.skip();
    if (reader.peek() !== "+" && reader.peek() !== "-") break;
    sign = reader.peek() === "+" ? 1 : -1;
    reader.at += 1;
  }
  if (terms.length === 1 && terms[0].sign === 1) return terms[0].value;
  return new DiceSum(terms);
}

/** product := unary (('*'|'/') unary)* */
function readProduct(reader) {
  let left = readUnary(reader);
  for (;;) {
    reader.skip();
    const op = reader.peek();
    if (op !== "*" && op !== "/") return left;
    if (reader.peek(2) === "**") throw reader.stray();
    reader.at += 1;
    left = new Binary(op, left, readUnary(reader));
  }
}

/** unary := '-' unary | atom */
function readUnary(reader) {
  reader.skip();
  if (reader.peek() !== "-") return readAtom(reader);
  reader.deeper();
  reader.at += 1;
  const node = new DiceSum([new Term(-1, readUnary(reader))]);
  reader.depth -= 1;
  return node;
}

/** The function named here, when a `(` follows it (after spaces). */
function functionAt(reader) {
  for (const name of Object.keys(CALLS)) {
    if (reader.peek(name.length) === name) {
      let after = reader.at + name.length;
      while (after < reader.length && SPACES.includes(reader.chars[after])) after += 1;
      if (reader.chars[after] === "(") return name;
    }
  }
  return null;
}

/** atom := (NUMBER | pool | '(' expr ')' | FUNC '(' ... ')' | group) [label] */
function readAtom(reader) {
  reader.skip();
  const start = reader.at;
  const first = reader.peek();
  let node;
  const name = functionAt(reader);
  const nested = first === "(" || first === "{" || name !== null;
  if (nested) reader.deeper();
  if (first === "(") {
    reader.at += 1;
    node = readExpr(reader);
    close(reader, "(", ")", start);
  } else if (first === "{") {
    node = readGroup(reader);
  } else if (name !== null) {
    node = readCall(reader, name);
  } else if (first === "d" || isDigit(first)) {
    node = readNumberOrPool(reader);
  } else {
    throw reader.stray();
  }
  if (nested) reader.depth -= 1;
  return readLabel(reader, node);
}

function close(reader, opened, closing, start) {
  reader.skip();
  if (reader.peek() === closing) {
    reader.at += 1;
    return;
  }
  if (reader.at === reader.length) {
    throw reader.fail(words("unclosed", [["open", opened]]), start, words("unclosed_hint", [["close", closing]]));
  }
  throw reader.stray();
}

function readLabel(reader, node) {
  const back = reader.at;
  reader.skip();
  if (reader.peek() !== "[") {
    reader.at = back;
    return node;
  }
  const start = reader.at;
  const end = reader.chars.indexOf("]", start + 1);
  const label = end < 0 ? "" : reader.slice(start + 1, end);
  if (end < 0 || label.includes("\n") || label.includes("\r")) {
    throw reader.fail(words("empty_label"), start, words("empty_label_hint"));
  }
  reader.at = end + 1;
  return new Labeled(node, label);
}

/** expr (',' expr)* up to its closing `closing` (the opening at `opened`). */
function readList(reader, opened, closing, at) {
  const items = [readExpr(reader)];
  reader.skip();
  while (reader.peek() === ",") {
    reader.at += 1;
    items.push(readExpr(reader));
    reader.skip();
  }
  close(reader, opened, closing, at);
  return items;
}

function readCall(reader, name) {
  const start = reader.at;
  reader.at += name.length;
  reader.skip();
  const opened = reader.at;
  reader.at += 1; // the "(" functionAt saw
  const args = readList(reader, "(", ")", opened);
  const [least, most] = CALLS[name];
  if (args.length < least || (most !== null && args.length > most)) {
    const many = most === 1 ? "1 argument" : `${least} arguments or more`;
    throw reader.fail(
      words("arguments", [["name", name], ["many", many], ["found", args.length]]),
      start,
      words("arguments_hint", [["name", name], ["many", many]]),
    );
  }
  return new Call(name, args);
}

function readNumberOrPool(reader) {
  const start = reader.at;
  const count = reader.number();
  if (reader.peek() === "." && isDigit(reader.ahead(1))) {
    if (count === null) throw reader.unexpected();
    reader.at += 1;
    const places = reader.digits();
    if (reader.peek() === "d") throw reader.fail(words("whole_count"), start);
    const scale = 10n ** BigInt(places.length);
    const value = fraction(BigInt(count) * scale + BigInt(places), scale);
    return value.denominator === 1n ? Number(value.numerator) : value;
  }
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

function readGroup(reader) {
  const start = reader.at;
  reader.at += 1;
  const items = readList(reader, "{", "}", start);
  return groupOptions(reader, items, start);
}
