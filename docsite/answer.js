// A "try it" answer as the rule reads at the table (imported by docsite/tryit.js).
//
// The runtime's answer, as rulebook.json writes it (plain data), is shown in the
// rule's own words, which the form carries (`words`, compiler/emit/markdown/form_words.py):
// each field's title, unit, the words its table uses for an empty cell and
// whether its numbers are signed; the rule's title, unit and words for no answer.
//
// - a record (a table's row, a decision's fields, a run's totals) is a list of
//   its fields' titles and values; a field that is a list of records (a run's
//   events) is a table of the columns any of them fills;
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

/** What the rule's data says of a name: {title, description, unit, empty, signed}. */
function about(words, name) {
  return has(words.names, name) ? words.names[name] : {};
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

function withUnit(text, unit) {
  if (!unit) return text;
  return /^[A-Za-z0-9]/.test(unit) ? `${text} ${unit}` : `${text}${unit}`;
}

function isDice(value) {
  return isRecord(value) && typeof value.notation === "string";
}

/** One value in words, as a table's cell shows it. */
export function phrase(value, info = {}, empty = "—") {
  if (value === null || value === undefined) return info.empty || empty;
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "number") {
    const text = info.signed && value > 0 ? `+${value}` : String(value);
    return withUnit(text, info.unit);
  }
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
          element("td", { "data-label": visible(heading(words, n)), text: phrase(row[n], about(words, n), "") })))),
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

/** A record: each field's title and its value, in the record's order. */
function record(value, words) {
  const items = element("dl", { class: "rb-try-record" });
  const below = [];
  for (const [name, field] of Object.entries(value)) {
    const info = about(words, name);
    if (Array.isArray(field) && field.length && field.every((f) => isRow(f) || Array.isArray(f))) {
      below.push(element("h3", { class: "rb-try-part", text: title(words, name) }), list(field, words, info));
    } else if (isRow(field)) {
      below.push(element("h3", { class: "rb-try-part", text: title(words, name) }), record(field, words));
    } else {
      items.append(element("div", {}, element("dt", { text: title(words, name) }), element("dd", { text: phrase(field, info) })));
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
  if (isRow(value)) return record(value, words);
  if (Array.isArray(value) && value.length && (value.every(isRow) || value.every(Array.isArray))) {
    return list(value, words, {});
  }
  // One value: a sentence. A rule whose one field is titled names it so.
  const info = has(words.names, "value") ? words.names.value : {};
  const unit = words.unit || info.unit;
  const text = phrase(value, { ...info, unit }, words.empty || "none");
  return element("p", { class: "rb-try-sentence" }, element("strong", { text: `${info.title || words.title}:` }), ` ${text}.`);
}
