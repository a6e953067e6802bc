/**
 * Notation reader: the text of a dice expression and the place reading has
 * got to (./dice_notation.js's; the twin of the Python runtime's
 * _notation_reader.py). Offsets count code points, as Python counts
 * characters.
 */

import * as spec from "./_dice_spec.js";
import { DiceSyntaxError } from "./dice.js";
import { reprString } from "./_support.js";

export const SPACES = " \t";
/** What may follow an atom (a pool's or a group's options end there). */
export const FOLLOWERS = " \t+-*/)},[<>=";

/** The definition's words for `key`, each `{name}` in them filled in (in
 * the order given, as Python's keyword arguments). */
export function words(key, values = []) {
  let text = spec.WORDS[key];
  for (const [name, value] of values) text = text.replaceAll(`{${name}}`, () => String(value));
  return text;
}

/** Whether `ch` is one ASCII digit. */
export function isDigit(ch) {
  return ch !== undefined && ch.length === 1 && ch >= "0" && ch <= "9";
}

/** The text (as code points) and the place reading has got to. */
export class Reader {
  constructor(text, bareD6) {
    this.text = text;
    this.chars = [...text];
    this.at = 0;
    this.bareD6 = bareD6;
    this.hint = spec.HINT; // what a mistake here is told to write
    this.depth = 0; // the parentheses, groups, calls and minus signs open here
  }

  /** One more level of nesting (refused past MAX_NESTING). */
  deeper() {
    this.depth += 1;
    if (this.depth > spec.MAX_NESTING) {
      throw this.fail(words("nesting", [["most", spec.MAX_NESTING]]), this.at, words("nesting_hint"));
    }
  }

  get length() {
    return this.chars.length;
  }

  peek(length = 1) {
    return this.chars.slice(this.at, this.at + length).join("");
  }

  /** The code point `ahead` places on (undefined past the end). */
  ahead(ahead) {
    return this.chars[this.at + ahead];
  }

  /** The text from `start` to `end` (code points). */
  slice(start, end = this.length) {
    return this.chars.slice(start, end).join("");
  }

  skip() {
    while (this.at < this.length && SPACES.includes(this.chars[this.at])) this.at += 1;
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
    if (at >= this.length) return this.fail("it ends too soon", at);
    return this.fail(`unexpected ${reprString(this.chars[at])}`, at);
  }

  /** The error for what stands here: an operator the notation refuses, or unexpected. */
  stray() {
    for (const refused of spec.REFUSED_OPERATORS) {
      if (this.peek([...refused.token].length) === refused.token) {
        return this.fail(refused.message, this.at, refused.hint);
      }
    }
    return this.unexpected();
  }

  digits() {
    const start = this.at;
    while (this.at < this.length && isDigit(this.chars[this.at])) this.at += 1;
    const found = this.slice(start, this.at);
    if (found.length > spec.MAX_DIGITS) {
      throw this.fail(`a number has more than ${spec.MAX_DIGITS} digits`, start);
    }
    return found;
  }

  number() {
    const start = this.at;
    const digits = this.digits();
    if (!digits) return null;
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
    return negative ? 0 - value : value; // (never -0)
  }
}
