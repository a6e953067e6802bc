// A "try it" answer as the rule reads at the table (imported by docsite/tryit.js).
//
// The runtime's answer, as rulebook.json writes it (plain data), is shown in the
// rule's own words, which the form carries (`words`, compiler/emit/markdown/form_words.py):
// each field's title, unit, the words its table uses for an empty cell,
// whether its numbers are signed and whether it is a time on the rule's clock;
// the rule's title, unit, clock and words for no answer, and, for a decision,
// what each of its cases gives.
//
// A number reads as `rulesc explain` and `rulesc simulate` print it (the CLI's
// Python formatter is the reference: compiler/workbench/common.py's `show`,
// compiler/kinds/process/workbench.py's `clock`): signed with its sign (+0,
// +2, -1), then its unit after a space ("%" right after it); a time on the
// clock in its units, largest first ("3h 07m").
//
// - a record (a table's row, a decision's fields, a run's totals) is a list of
//   its fields' titles and values; a field that is a list of records (a run's
//   events) is a table of the columns any of them fills; a decision's answer
//   lists the fields its case gives (the others keep defaults that do not
//   apply to it), when its constants tell the case;
// - odds (each answer with its chance, an exact fraction) are bars;
// - a number, a text or a flag is a sentence: the rule's title and the value.
//
// Nothing here knows a rule: every word shown is the rule's data or the value's.

const FRACTION = /^[0-9]+(\/[0-9]+)?$/;
const WHOLE = /^-?[0-9]+$/;
const IDENTIFIER = /^[a-z][a-z0-9]*(_[a-z0-9]+)+$/;

// A character that acts on text or hides in it (a control, a bidirectional or
// other format character, a separator, a private-use, unassigned or lone
// surrogate code point): what Python's str.isprintable refuses, but white space.
const HIDDEN = /(?![\t\n\r])[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]/gu;

function hex(code, digits) {
  return code.toString(16).padStart(digits, "0");
}

/** Text as the page shows it: each hidden character as Python's escape of it
 * (\x1b, \u202e, \U000e0001), as rulesc writes it in the page (compiler/common/visible.py). */
export function visible(text) {
  return String(text).replace(HIDDEN, (ch) => {
    const code = ch.codePointAt(0);
    if (code < 0x100) return `\\x${hex(code, 2)}`;
    return code < 0x10000 ? `\\u${hex(code, 4)}` : `\\U${hex(code, 8)}`;
  });
}

/** JSON text with each hidden character as its \u escape (a pair past U+FFFF):
 * the same JSON, shown. */
export function jsonVisible(text) {
  return String(text).replace(HIDDEN, (ch) =>
    Array.from({ length: ch.length }, (_, i) => `\\u${hex(ch.charCodeAt(i), 4)}`).join(""),
  );
}

function element(tag, attributes = {}, ...children) {
  const made = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === "text") made.textContent = visible(value);
    else made.setAttribute(name, String(value));
  }
  for (const child of children) {
    if (child !== null && child !== undefined) made.append(typeof child === "string" ? visible(child) : child);
  }
  return made;
}

const has = (object, key) => object !== null && typeof object === "object" && Object.hasOwn(object, key);
const isRecord = (value) => value !== null && typeof value === "object" && !Array.isArray(value);

/** A name as words: "con_damage_dealt" -> "Con damage dealt". */
export function humanize(name) {
  const words = String(name).replace(/_/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** What the rule's data says of a name: {title, description, unit, empty,
 * signed, time}, and the rule's clock. */
function about(words, name) {
  const clock = Array.isArray(words.clock) ? words.clock : [];
  return has(words.names, name) ? { ...words.names[name], clock } : { clock };
}

/** A name's title for a column's header: short. */
function heading(words, name) {
  return about(words, name).title || humanize(name);
}

/** A name's title in a list of fields: its title, else what it is. */
function title(words, name) {
  const info = about(words, name);
  if (info.title) return info.title;
  if (info.description) return info.description.replace(/[.\s]+$/, "");
  return humanize(name);
}

/** A value's text with its unit: after a space, a "%" right after it. */
function withUnit(text, unit) {
  if (!unit) return text;
  return unit === "%" ? `${text}${unit}` : `${text} ${unit}`;
}

/** A time of `ticks` in the clock's `units` ([name, ticks], largest first),
 * as the CLI shows one: each unit by its first letter (its whole name where
 * two share one), the parts below the largest padded to the width they reach
 * ("12m", "3h 07m", "1d 05h 07m"). */
export function clockText(ticks, units) {
  const letters = units.map(([name]) => String(name).charAt(0));
  const short = new Set(letters).size === letters.length;
  const parts = [];
  let rest = ticks;
  units.forEach(([name, size], index) => {
    const count = Math.floor(rest / size);
    rest -= count * size;
    if (!parts.length && !count && index < units.length - 1) return;
    const width = parts.length ? String(Math.floor(units[index - 1][1] / size) - 1).length : 1;
    const sign = count < 0 ? "-" : "";
    const digits = String(Math.abs(count)).padStart(width - sign.length, "0");
    parts.push(`${sign}${digits}${short ? letters[index] : ` ${name}`}`);
  });
  return parts.join(" ");
}

/** A whole number as the CLI shows it: a time on the clock in its units, else
 * signed where its field is, with its unit. */
function numberText(value, info) {
  if (info.time && Number.isInteger(value) && info.clock && info.clock.length) {
    return clockText(value, info.clock);
  }
  const text = info.signed && Number.isInteger(value) && value >= 0 ? `+${value}` : String(value);
  return withUnit(text, info.unit);
}

function isDice(value) {
  return isRecord(value) && typeof value.notation === "string";
}

/** One value in words, as a table's cell shows it. */
export function phrase(value, info = {}, empty = "—") {
  if (value === null || value === undefined) return info.empty || empty;
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "number") return numberText(value, info);
  if (typeof value === "string") {
    return withUnit(IDENTIFIER.test(value) ? value.replace(/_/g, " ") : value, info.unit);
  }
  if (isDice(value)) return withUnit(value.notation, value.unit || info.unit);
  if (Array.isArray(value)) {
    if (value.length === 0) return info.empty || "none";
    return value.map((item) => phrase(item, { unit: info.unit })).join(", ");
  }
  return Object.entries(value).map(([k, v]) => `${humanize(k)}: ${phrase(v)}`).join("; ");
}

const isRow = (value) => isRecord(value) && !isDice(value);

/** A list of records (a run's events): a table of the columns any row fills. */
function recordTable(rows, words) {
  const names = [];
  for (const row of rows) {
    for (const [name, value] of Object.entries(row)) {
      if (value !== null && !names.includes(name)) names.push(name);
    }
  }
  const table = element(
    "table",
    { class: "rb-try-table" },
    element("thead", {}, element("tr", {}, ...names.map((n) => element("th", { scope: "col", text: heading(words, n) })))),
    element(
      "tbody",
      {},
      ...rows.map((row) =>
        element("tr", {}, ...names.map((n) =>
          // its column's title, shown before it on a phone (docsite/rulebook.css)
          figure("td", n, row[n], phrase(row[n], about(words, n), ""), visible(heading(words, n)))))),
    ),
  );
  return element("div", { class: "rb-try-scroll" }, table);
}

/** A list of lists (pairs, triples): a table of them, a row each. */
function tupleTable(rows) {
  return element(
    "div",
    { class: "rb-try-scroll" },
    element(
      "table",
      { class: "rb-try-table" },
      element("tbody", {}, ...rows.map((row) => element("tr", {}, ...row.map((v) => element("td", { text: phrase(v) }))))),
    ),
  );
}

function list(value, words, info) {
  if (value.length && value.every(isRow)) return recordTable(value, words);
  if (value.length && value.every(Array.isArray)) return tupleTable(value);
  return element("p", { class: "rb-try-sentence", text: phrase(value, info) });
}

/** A value's element, named for what it is (`data-name`, and `data-value`
 * its JSON, which the tests compare with the CLI's formatter). */
function figure(tag, name, value, text, label) {
  const attributes = { "data-name": name, "data-value": JSON.stringify(value ?? null), text };
  if (label !== undefined) attributes["data-label"] = label;
  return element(tag, attributes);
}

const same = (a, b) => a === b || (a === null && b === undefined);

/** The fields a decision's answer shows: those its case gives, where the
 * answer's constants tell the case (every case they could be giving the same
 * fields); else all of them. */
function applying(value, words) {
  const cases = Array.isArray(words.cases) ? words.cases : [];
  const could = cases.filter((c) => Object.entries(c.fixed).every(([k, v]) => same(v, value[k])));
  if (!could.length) return null;
  const given = new Set(could[0].given);
  const agree = could.every((c) => c.given.length === given.size && c.given.every((n) => given.has(n)));
  return agree ? given : null;
}

/** A record: each field's title and its value, in the record's order; `top`:
 * the answer itself (a decision's case may leave fields that do not apply). */
function record(value, words, top = false) {
  const items = element("dl", { class: "rb-try-record" });
  const below = [];
  const shownFields = top ? applying(value, words) : null;
  for (const [name, field] of Object.entries(value)) {
    if (shownFields !== null && !shownFields.has(name)) continue;
    const info = about(words, name);
    if (Array.isArray(field) && field.length && field.every((f) => isRow(f) || Array.isArray(f))) {
      below.push(element("h3", { class: "rb-try-part", text: title(words, name) }), list(field, words, info));
    } else if (isRow(field)) {
      below.push(element("h3", { class: "rb-try-part", text: title(words, name) }), record(field, words));
    } else {
      items.append(element("div", {}, element("dt", { text: title(words, name) }), figure("dd", name, field, phrase(field, info))));
    }
  }
  const parts = items.childElementCount ? [items, ...below] : below;
  return element("div", { class: "rb-try-fieldset" }, ...parts);
}

function chance(fraction) {
  const [top, bottom] = String(fraction).split("/");
  return Number(top) / (bottom === undefined ? 1 : Number(bottom));
}

function percent(p) {
  if (p === 0) return "0%";
  if (p < 0.0001) return "under 0.01%";
  return `${(p * 100).toFixed(p < 0.01 ? 2 : 1)}%`;
}

/** An answer of odds (a JSON key) in words: a flag as yes or no. */
function outcome(key) {
  if (key === "true" || key === "false") return phrase(key === "true");
  return phrase(key);
}

/** Odds: each answer with its chance, as a bar; numbers in order. */
function odds(value, words) {
  const entries = Object.entries(value);
  if (entries.every(([key]) => WHOLE.test(key))) entries.sort((a, b) => Number(a[0]) - Number(b[0]));
  const rows = entries.map(([answer, fraction]) => {
    const p = chance(fraction);
    const bar = element("span", { class: "rb-try-bar", style: `width: ${(p * 100).toFixed(2)}%` });
    return element(
      "tr",
      {},
      element("th", { scope: "row", text: outcome(answer) }),
      element(
        "td",
        { class: "rb-try-chance", title: String(fraction) },
        element("span", { class: "rb-try-track", "aria-hidden": "true" }, bar),
        element("span", { class: "rb-try-percent", text: percent(p) }),
      ),
    );
  });
  return element(
    "table",
    { class: "rb-try-odds" },
    element("caption", { text: `${words.title}: the chance of each answer` }),
    element(
      "thead",
      {},
      element("tr", {}, element("th", { scope: "col", text: "Answer" }), element("th", { scope: "col", text: "Chance" })),
    ),
    element("tbody", {}, ...rows),
  );
}

/** The answer `value` of a call, shown in the rule's `words`; `isOdds`: the
 * call gives each answer's chance. */
export function shown(value, words, isOdds) {
  if (isOdds && isRecord(value) && Object.values(value).every((v) => FRACTION.test(String(v)))) {
    return odds(value, words);
  }
  if (isRow(value)) return record(value, words, true);
  if (Array.isArray(value) && value.length && (value.every(isRow) || value.every(Array.isArray))) {
    return list(value, words, {});
  }
  // One value: a sentence. A rule whose one field is titled names it so.
  const info = about(words, "value");
  const unit = words.unit || info.unit;
  const text = phrase(value, { ...info, unit }, words.empty || "none");
  return element(
    "p",
    { class: "rb-try-sentence" },
    element("strong", { text: `${info.title || words.title}:` }),
    " ",
    figure("span", "", value, text),
    ".",
  );
}
