/**
 * Notation pools: a pool's sides and options, and a group's options, read
 * from the definition's table (./dice_notation.js's; the twin of the Python
 * runtime's _notation_pool.py, message for message and offset for offset).
 */

import * as spec from "./_dice_spec.js";
import { FOLLOWERS, SPACES, isDigit, words } from "./_notation_reader.js";
import { AnyOf, Compare, FUDGE_1, Pool } from "./dice_terms.js";
import { Group } from "./dice_tree.js";
import { MAX_ENTRIES, grouped } from "./_support.js";

/** The options read so far: the fields they set, where each was written,
 * and the conditions of each (several for an option that repeats; null for
 * a bare `r`: the lowest face). */
class Options {
  constructor(start) {
    this.start = start;
    this.fields = {};
    this.places = new Map();
    this.conditions = new Map();
    this.sets = new Map();
  }
}

/** The message of a value's own check (after its text and ": "). */
function ownMessage(error) {
  const text = error instanceof Error ? error.message : String(error);
  const cut = text.indexOf(": ");
  return (cut < 0 ? "" : text.slice(cut + 2)) || text;
}

/** The pool whose `d` `reader` has just read (`count` dice, its text from `start`). */
export function readPool(reader, count, start) {
  const sidesAt = reader.at;
  const [sides, fudge, listed] = readSides(reader);
  const found = readOptions(reader, new Options(start), false);
  const { fields } = found;
  if (found.conditions.has("reroll")) {
    const { minimum = null, maximum = null } = fields;
    const lowest = Math.min(...new Pool(count, sides, { fudge, listed, minimum, maximum }).shownFaces);
    fields.reroll = condition(found.conditions.get("reroll"), lowest);
  }
  for (const name of ["explodeAt", "target", "failure"]) {
    const written = (found.conditions.get(name) ?? []).filter((c) => c !== null);
    if (written.length) fields[name] = condition(written, 0);
  }
  let pool;
  try {
    pool = new Pool(count, sides, { fudge, listed, ...fields });
  } catch (error) {
    // the pool's own checks: point at the option
    const message = ownMessage(error);
    const where = culprit(message, found.places, sidesAt);
    const hint = spec.REFUSAL_HINTS.find(([word]) => message.includes(word));
    throw reader.fail(message, where, hint === undefined ? spec.HINT : hint[1]);
  }
  met(reader, pool, found);
  spaced(reader, start);
  return pool;
}

/** The group of `items` whose `}` `reader` has just read, with its options. */
export function groupOptions(reader, items, start) {
  const found = readOptions(reader, new Options(start), true);
  const { fields } = found;
  for (const name of ["target", "failure"]) {
    if (found.conditions.has(name)) fields[name] = condition(found.conditions.get(name), 0);
  }
  try {
    return new Group(items, fields);
  } catch (error) {
    const message = ownMessage(error);
    throw reader.fail(message, culprit(message, found.places, start));
  }
}

/** `.1`, `.2` or another variant of a Fudge die, after its `F`. */
function fudgeSides(reader) {
  if (reader.peek() !== "." || !isDigit(reader.ahead(1))) return [3, true, null];
  const variant = reader.peek(2);
  if ((variant === ".1" || variant === ".2") && !isDigit(reader.ahead(2))) {
    reader.at += 2;
    return variant === ".1" ? [FUDGE_1.length, true, FUDGE_1] : [3, true, null];
  }
  throw reader.fail(words("fudge_variant"), reader.at, words("fudge_variant_hint"));
}

function readSides(reader) {
  if (reader.peek() === "%") {
    reader.at += 1;
    return [100, false, null];
  }
  if (reader.peek() === "F") {
    reader.at += 1;
    return fudgeSides(reader);
  }
  const sidesAt = reader.at;
  const found = reader.number();
  if (found === null && !reader.bareD6) {
    throw reader.fail(
      "the die's sides are missing",
      reader.at,
      "write the sides after the d, e.g. 3d6, d%, dF (only GURPS notation allows a bare Nd)",
    );
  }
  const sides = found === null ? 6 : found;
  if (sides < 1) throw reader.fail("a die needs at least one side", sidesAt);
  if (found !== null && reader.peek() === "." && isDigit(reader.ahead(1))) {
    throw reader.fail(words("whole_sides"), sidesAt);
  }
  if (sides > MAX_ENTRIES) {
    throw reader.fail(`a die has at most ${grouped(MAX_ENTRIES)} sides`, sidesAt, "use fewer sides");
  }
  return [sides, false, null];
}

/** Read the options written here, up to the first that is none. */
function readOptions(reader, found, group) {
  for (;;) {
    const at = reader.at;
    reader.hint = takes(reader.slice(found.start, at), found, group);
    const form = readForm(reader, group);
    if (form === null) break;
    if (form.refused !== undefined) throw reader.fail(form.refused.message, at, form.refused.hint);
    const { option } = form;
    if (found.places.has(option.name) && !option.repeats) {
      throw reader.fail(spec.SECOND.replace("{noun}", () => option.noun), at);
    }
    readOption(reader, option, form.form, found);
    if (!found.places.has(option.name)) found.places.set(option.name, at);
  }
  if (reader.at < reader.length && !FOLLOWERS.includes(reader.peek())) throw reader.stray();
  reader.hint = spec.HINT;
  return found;
}

/** Which options a pool takes after `written` (its text so far), the
 * options in `found` already written: a hint where one is refused. */
function takes(written, found, group) {
  const free = [];
  for (const option of spec.OPTIONS) {
    const hidden = Object.entries(option.hiddenWhen).some(([field, values]) =>
      values.includes(found.fields[field]),
    );
    if ((found.places.has(option.name) && !option.repeats) || hidden) continue;
    if (group && !option.inGroups) continue;
    const after = Object.entries(option.takesAfter).find(([name]) => found.places.has(name));
    free.push(after === undefined ? option.takes : after[1]);
  }
  if (!free.length) return spec.NO_MORE_OPTIONS.replaceAll("{written}", () => written);
  return spec.MORE_OPTIONS.replaceAll("{written}", () => written).replaceAll("{options}", () => free.join("; "));
}

function culprit(message, places, sidesAt) {
  for (const [word, name] of spec.CULPRITS) {
    if (message.includes(word) && places.has(name)) return places.get(name);
  }
  return sidesAt;
}

/** Whether a comparison starts here. */
export function startsCompare(reader) {
  return spec.COMPARISONS.some((op) => reader.peek(op.length) === op);
}

/** The option written here: the longest token that matches (a refused token
 * too), else a form without a token whose argument starts here; null. */
function readForm(reader, group) {
  let found = null;
  let longest = 0;
  for (const option of spec.OPTIONS) {
    if (group && !option.inGroups) continue;
    for (const form of option.forms) {
      const length = [...form.token].length;
      if (length > longest && reader.peek(length) === form.token) {
        found = { option, form };
        longest = length;
      }
    }
  }
  for (const refused of spec.REFUSED) {
    const length = [...refused.token].length;
    if (length > longest && reader.peek(length) === refused.token) {
      found = { refused };
      longest = length;
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

function sameSets(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Read one option of a pool (or group) into `found`. */
function readOption(reader, option, form, found) {
  const at = reader.at;
  if (found.sets.has(option.name) && !sameSets(found.sets.get(option.name), form.sets)) {
    throw reader.fail(words("mixed_rerolls"), at, words("mixed_rerolls_hint"));
  }
  found.sets.set(option.name, form.sets);
  reader.at += [...form.token].length;
  Object.assign(found.fields, form.sets);
  const { argument } = option;
  if (argument.shape === "none") return;
  if (argument.shape === "compare") {
    if (!found.conditions.has(argument.field)) found.conditions.set(argument.field, []);
    const conditions = found.conditions.get(argument.field);
    const digit = isDigit(reader.peek()); // (-1 after it is a term: write =-1)
    if (argument.optional && !(startsCompare(reader) || (argument.op !== null && digit))) {
      conditions.push(null);
      return;
    }
    conditions.push(readCompare(reader, argument.op, argument.what));
    return;
  }
  const valueAt = reader.at;
  let value;
  if (argument.signed) {
    value = reader.signed(argument.what);
  } else if (argument.default !== null && !form.required) {
    const number = reader.number();
    value = number === null ? argument.default : number;
  } else {
    value = reader.needed(argument.what);
  }
  if (argument.least !== null && value < argument.least) throw reader.fail(argument.belowLeast, valueAt);
  found.fields[argument.field] = value;
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
  const opAt = reader.at;
  if (reader.peek(op.length) === op) reader.at += op.length;
  const value = reader.signed(what);
  if (op === ">") {
    throw reader.fail(
      words("strict_greater", [["value", value]]),
      opAt,
      words("strict_greater_hint", [["value", value], ["next", value + 1]]),
    );
  }
  if (op === "<") {
    throw reader.fail(
      words("strict_less", [["value", value]]),
      opAt,
      words("strict_less_hint", [["value", value], ["previous", value - 1]]),
    );
  }
  return new Compare(op, value);
}

/** One condition of those written (null: `lowest`, the die's lowest face). */
function condition(conditions, lowest) {
  const found = conditions.map((c) => (c === null ? new Compare("=", lowest) : c));
  return found.length === 1 ? found[0] : new AnyOf(found);
}

/** Refuse a target (or failure) that no face of the die can meet. */
function met(reader, pool, found) {
  if (!pool.numeric) return;
  const faces = new Set(pool.finalFaces());
  const boom = pool.explodeAt;
  if (boom !== null && ![...faces].some((f) => boom.meets(f))) {
    const at = found.places.get("explode");
    const written = reader.slice(found.start, at) + String(pool.explode);
    throw reader.fail(
      words("never_explodes", [["pool", written], ["condition", boom]]),
      at,
      words("never_explodes_hint", [["pool", written], ["top", pool.top], ["condition", boom]]),
    );
  }
  if (pool.explode === "!!") return;
  if (pool.explode === "!p") for (const f of [...faces]) faces.add(f - 1);
  for (const [name, key] of [["target", "no_face_meets"], ["failure", "no_face_fails"]]) {
    const met = pool[name];
    if (met === null || [...faces].some((f) => met.meets(f))) continue;
    const at = found.places.get(name);
    const written = reader.slice(found.start, at);
    const compare = met instanceof Compare ? met : met.conditions[0];
    throw reader.fail(
      words(key, [["pool", written], ["target", met], ["failure", met]]),
      at,
      words(`${key}_hint`, [["pool", written], ["op", compare.op], ["value", compare.value]]),
    );
  }
}

// Python's str.split() splits on these
const WHITESPACE = /[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/u;

/** The code point at `at` or after the spaces there (undefined at the end). */
function afterSpaces(reader, at) {
  let found = at;
  while (found < reader.length && SPACES.includes(reader.chars[found])) found += 1;
  return reader.chars[found];
}

/** Refuse a pool's option written after a space (`4d6 kh3`). */
function spaced(reader, start) {
  const back = reader.at;
  reader.skip();
  if (reader.at === back || startsCompare(reader)) {
    reader.at = back;
    return;
  }
  const form = readForm(reader, false);
  if (
    form === null ||
    form.refused !== undefined ||
    !form.form.token ||
    reader.peek() === "d" || // (a pool after a space: an operator is missing)
    afterSpaces(reader, reader.at + [...form.form.token].length) === "("
  ) {
    reader.at = back;
    return;
  }
  const rest = reader.slice(reader.at);
  throw reader.fail(
    words("spaced_options"),
    reader.at,
    words("spaced_options_hint", [["pool", reader.slice(start, back)], ["option", rest.split(WHITESPACE)[0]]]),
  );
}
