// The reference site's "try it" forms (added by docsite/hooks.py, as a module).
//
// A rule page with a form holds its description as JSON, in the data-form
// attribute of an empty <div class="rulebook-try"> (written by rulesc:
// compiler/emit/markdown/forms.py). This script builds the form from it and answers with the
// JavaScript runtime (generated/js), which the site ships in assets/rulebook/:
//
// - each field fills one input of the rule: a choice list for a label, a number
//   field with its bounds, a check box for a flag, a choice per key for a
//   mapping, a line of numbers for a run of them (die results, in order);
// - each call the form can make is a rule's call spelt for JavaScript as a plan
//   (compiler/emit/javascript/plan.py), the one the conformance tests make,
//   whose arguments name the fields; it is made on
//   the system's module by the runner they share (docsite/plan.js);
// - a call that rolls dice rolls them with Random(seed), CPython's random.Random
//   draw for draw (an empty seed: one is drawn and shown), or with the results
//   given, in order (Scripted);
// - the answer is shown as the rule reads at the table, in the rule's words
//   (docsite/answer.js); the runtime's JSON (json.js dumps, as Python's
//   rulebook.json writes it) is kept under "For programmers";
// - a refusal (RuleInputError) of a number past its field's bounds is said
//   with the bounds whole, in the field's words ("Dice must be from 0 to 30,
//   not 31"); any other is shown as its message, each of the runtime's
//   parameter names in it given as the field's label on the page (the message
//   as the runtime gave it is kept under "For programmers");
// - labels and fields are shown in the rules' words: each field by its title,
//   each label as the form's data says it (a label written as an identifier,
//   in words).
//
// Nothing here knows a rule, a game or a word of one: all of it is in the data.
// Nothing is fetched but the runtime's modules, from the site itself.

import { jsonVisible, shown, visible } from "./answer.js";
import { PlanProblem, runPlan } from "./plan.js";
import { Scripted } from "./rulebook/dice.js";
import { RuleInputError } from "./rulebook/errors.js";
import { dumps } from "./rulebook/json.js";
import { Random } from "./rulebook/random.js";

const WHOLE = /^[+-]?[0-9]+$/;
const NONE = "(none)";

/** An input the form cannot make a call of: shown as a message, like a refusal. */
class FormProblem extends Error {}

// -- building the form --------------------------------------------------------------

function element(tag, attributes = {}, ...children) {
  const made = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "text") made.textContent = visible(value);
    else made.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (child !== null) made.append(typeof child === "string" ? visible(child) : child);
  }
  return made;
}

/** A choice among `labels` (the values given), each shown as its words
 * (`shown`, in order: the form's data says each label as a reader reads it). */
function choiceList(labels, chosen, nullable, attributes, shown = labels) {
  const select = element("select", attributes);
  if (nullable) select.append(element("option", { value: "", text: NONE }));
  labels.forEach((label, i) => select.append(element("option", { value: label, text: shown[i] ?? label })));
  select.value = chosen === null || chosen === undefined ? (nullable ? "" : labels[0]) : chosen;
  return select;
}

function bounds(field) {
  if (field.min !== null && field.max !== null) return `from ${field.min} to ${field.max}`;
  if (field.min !== null) return `at least ${field.min}`;
  if (field.max !== null) return `at most ${field.max}`;
  return "a whole number";
}

function hint(field, extra) {
  const parts = [field.description, extra].filter((part) => part);
  return parts.length ? element("span", { class: "rb-try-hint", text: parts.join(" ") }) : null;
}

/** A field's control and how to read its value: {node, read}. */
function control(field) {
  const name = element("span", { class: "rb-try-name", text: field.label });
  const data = { "data-field": field.name, name: field.name };
  if (field.kind === "bool") {
    const box = element("input", { type: "checkbox", ...data });
    box.checked = field.start === true;
    return {
      node: element("label", { class: "rb-try-field rb-try-flag" }, box, name, hint(field)),
      read: () => box.checked,
    };
  }
  if (field.kind === "choice") {
    const select = choiceList(field.labels, field.start, field.nullable, data, field.options);
    return {
      node: element("label", { class: "rb-try-field" }, name, select, hint(field)),
      read: () => (select.value === "" && field.nullable ? null : select.value),
    };
  }
  if (field.kind === "int" && field.one_of) {
    const labels = field.one_of.map(String);
    const start = field.start === null ? null : String(field.start);
    const select = choiceList(labels, start, !field.required, data);
    return {
      node: element("label", { class: "rb-try-field" }, name, select, hint(field)),
      read: () => (select.value === "" ? field.default : Number(select.value)),
    };
  }
  if (field.kind === "int") {
    const input = element("input", {
      type: "number", step: 1, inputmode: "numeric", min: field.min, max: field.max, ...data,
    });
    input.value = field.start === null ? "" : String(field.start);
    return {
      node: element("label", { class: "rb-try-field" }, name, input, hint(field, `(${bounds(field)})`)),
      read: () => {
        const text = input.value.trim();
        if (input.validity.badInput) throw new FormProblem(`${field.label}: not a number`);
        if (text === "") {
          if (!field.required) return field.default;
          throw new FormProblem(`${field.label}: a whole number is needed`);
        }
        return Number(text);
      },
    };
  }
  if (field.kind === "ints" || field.kind === "list") {
    const input = element("input", { type: "text", inputmode: "numeric", autocomplete: "off", ...data });
    input.value = field.start.join(" ");
    return {
      node: element("label", { class: "rb-try-field" }, name, input, hint(field, `(each ${bounds(field)})`)),
      read: () => wholeNumbers(input.value, field.label),
    };
  }
  return mapping(field, name);
}

/** The whole numbers of a line (split at spaces or commas), in order. */
function wholeNumbers(text, what) {
  const words = text.trim() === "" ? [] : text.trim().split(/[\s,]+/);
  const bad = words.find((word) => !WHOLE.test(word));
  if (bad !== undefined) throw new FormProblem(`${what}: ${bad} is not a whole number`);
  return words.map(Number);
}

function mapping(field, name) {
  const start = field.start || {};
  const selects = field.labels.map((key) =>
    choiceList(field.values, Object.hasOwn(start, key) ? start[key] : null, false, {
      "data-field": field.name, "data-key": key, name: `${field.name}.${key}`,
    }, field.value_options),
  );
  const entries = element(
    "div",
    { class: "rb-try-entries" },
    ...field.labels.map((key, i) =>
      element("label", { class: "rb-try-field" }, element("span", { class: "rb-try-name", text: (field.options || field.labels)[i] }), selects[i]),
    ),
  );
  let byDefault = null;
  if (field.nullable) {
    byDefault = element("input", { type: "checkbox", "data-field": field.name, "data-default": true });
    byDefault.checked = field.start === null;
    const sync = () => selects.forEach((s) => { s.disabled = byDefault.checked; });
    byDefault.addEventListener("change", sync);
    sync();
  }
  const node = element(
    "fieldset",
    { class: "rb-try-mapping" },
    element("legend", {}, name),
    hint(field),
    byDefault && element("label", { class: "rb-try-field rb-try-flag" }, byDefault, element("span", { text: "use its default" })),
    entries,
  );
  return {
    node,
    read: () => {
      if (byDefault !== null && byDefault.checked) return null;
      return Object.fromEntries(field.labels.map((key, i) => [key, selects[i].value]));
    },
  };
}

/** The dice of a call that rolls: a seed for Random, or the results in order. */
function diceControl(start) {
  const mode = choiceList(["seed", "results"], start === null ? "seed" : "results", false, { name: "$dice" });
  mode.options[0].textContent = "random, from the seed";
  mode.options[1].textContent = "these results, in order";
  const input = element("input", { type: "text", inputmode: "numeric", name: "$dice-value", autocomplete: "off" });
  input.value = start === null ? "" : start.join(" ");
  const node = element(
    "fieldset",
    { class: "rb-try-dice" },
    element("legend", { text: "Dice" }),
    element(
      "div",
      { class: "rb-try-fields" },
      element("label", { class: "rb-try-field" }, element("span", { class: "rb-try-name", text: "rolled" }), mode),
      element("label", { class: "rb-try-field" }, element("span", { class: "rb-try-name", text: "seed or results" }), input),
    ),
  );
  return {
    node,
    rng() {
      const text = input.value.trim();
      if (mode.value === "seed") {
        if (text === "") {
          const seed = Math.floor(Math.random() * 2 ** 32);
          return { rng: new Random(seed), note: `Rolled with seed ${seed}, drawn at random.` };
        }
        if (!WHOLE.test(text)) throw new FormProblem("the seed must be a whole number");
        return { rng: new Random(BigInt(text)), note: "" };
      }
      return { rng: new Scripted(wholeNumbers(text, "the results")), note: "" };
    },
  };
}

// -- answering ----------------------------------------------------------------------

/** Each name the runtime may give a field by in a message (its JavaScript and
 * Python names, in a call's plan), with the field's label. */
function fieldNames(form) {
  const labels = new Map(form.fields.map((f) => [f.name, f.label]));
  const found = new Map();
  const walk = (value, each) => {
    if (Array.isArray(value)) {
      value.forEach((v) => walk(v, each));
    } else if (value !== null && typeof value === "object") {
      const field = Object.hasOwn(value, "field") ? value.field : value.item ? each : null;
      if (field !== null && labels.has(field)) {
        for (const name of [value.js, value.py]) {
          if (typeof name === "string" && name !== "") found.set(name, labels.get(field));
        }
      }
      const inner = typeof value.each_field === "string" ? value.each_field : each;
      Object.values(value).forEach((v) => walk(v, inner));
    }
  };
  form.calls.forEach((call) => walk(call.plan, null));
  return [...found].sort((a, b) => b[0].length - a[0].length);
}

/** A number field's value past its bounds, said whole in the field's words
 * ("Dice must be from 0 to 30, not 31"; an open end: "at most 30"), for the
 * first field given one; null when every value is within its bounds. */
function outside(form, values) {
  for (const field of form.fields) {
    if (!["int", "ints", "list"].includes(field.kind) || field.one_of) continue;
    const given = field.kind === "int" ? [values[field.name]] : values[field.name];
    const past = (given || []).find(
      (v) => typeof v === "number" && ((field.min !== null && v < field.min) || (field.max !== null && v > field.max)),
    );
    if (past !== undefined) {
      return `${field.label} must ${field.kind === "int" ? "be" : "each be"} ${bounds(field)}, not ${past}`;
    }
  }
  return null;
}

const escaped = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A step that has no answer to take: the rule gave none ("none" in its words). */
function nothingFor(words, name) {
  const info = name !== null && Object.hasOwn(words.names, name) ? words.names[name] : {};
  const what = info.title || info.description || name || "more";
  return `${words.title}: ${words.empty || "none"}, so there is no “${what}” to give.`;
}

/** A refusal's message with each parameter named by its field's label. */
function inWords(message, names) {
  let text = message;
  for (const [name, label] of names) {
    text = text.replace(new RegExp(`(?<![A-Za-z0-9_$])${escaped(name)}(?![A-Za-z0-9_$])`, "g"), () => label);
  }
  return text;
}

function build(holder, form, module) {
  const fields = form.fields.map((field) => ({ field, ...control(field) }));
  const calls = form.calls.length > 1
    ? choiceList(form.calls.map((c) => c.label), form.calls[form.start.call].label, false, { name: "$call" })
    : null;
  const dice = form.calls.some((c) => c.rng) ? diceControl(form.start.dice) : null;
  const names = fieldNames(form);
  const code = element("code");
  const said = element("div", { class: "rb-try-answer" });
  const note = element("p", { class: "rb-try-note" });
  const raw = element(
    "details",
    { class: "rb-try-raw" },
    element("summary", { text: "For programmers: the runtime's answer" }),
    element("pre", {}, code),
  );
  const out = element("div", { class: "rb-try-out", "aria-live": "polite" }, said, note, raw);
  const ask = fields.length || dice || calls;
  const node = element(
    "form",
    { class: "rb-try", novalidate: true, "aria-label": `Try ${form.words.title}` },
    element("h2", { class: "rb-try-title", text: "Try it" }),
    element(
      "p",
      { class: "rb-try-intro" },
      "Answered in this page by the JavaScript runtime, from the same rules.",
    ),
    element("div", { class: "rb-try-fields" }, ...fields.map((f) => f.node)),
    calls && element(
      "div",
      { class: "rb-try-fields rb-try-call" },
      element("label", { class: "rb-try-field" }, element("span", { class: "rb-try-name", text: "What to work out" }), calls),
    ),
    dice && dice.node,
    ask ? element("button", { type: "submit", class: "md-button" }, "Answer") : null,
    out,
  );
  let answered = 0;

  function call() {
    return form.calls[calls === null ? 0 : calls.selectedIndex];
  }

  function show(state, answer, text, extra = "") {
    out.setAttribute("data-state", state);
    said.replaceChildren(answer);
    code.textContent = jsonVisible(text);
    note.textContent = visible(extra);
    answered += 1;
    node.setAttribute("data-answers", String(answered));
  }

  function answer() {
    const chosen = call();
    if (dice !== null) dice.node.hidden = !chosen.rng;
    let values = {};
    try {
      values = Object.fromEntries(fields.map((f) => [f.field.name, f.read()]));
      const rolled = chosen.rng ? dice.rng() : { rng: null, note: "" };
      const value = runPlan(module, chosen.plan, rolled.rng, values);
      const left = rolled.rng instanceof Scripted ? rolled.rng.remaining : 0;
      const data = dumps(value, { indent: 2, ensureAscii: false });
      show(
        "answer",
        shown(JSON.parse(data), form.words, chosen.odds),
        data,
        left ? `${left} of the results given were not used.` : rolled.note,
      );
    } catch (error) {
      if (
        error instanceof RuleInputError ||
        error instanceof FormProblem ||
        error instanceof PlanProblem
      ) {
        let message = error.message;
        if (error instanceof RuleInputError) message = outside(form, values) ?? inWords(message, names);
        if (error instanceof PlanProblem) message = nothingFor(form.words, error.field);
        show("refused", element("p", { class: "rb-try-refusal", text: message }), error.message);
      } else {
        const message = `${error.name}: ${error.message}`;
        show("failed", element("p", { class: "rb-try-refusal", text: message }), message);
        console.error(error);
      }
    }
  }

  node.addEventListener("submit", (event) => {
    event.preventDefault();
    answer();
  });
  node.addEventListener("change", answer);
  node.addEventListener("input", (event) => {
    if (event.target.type !== "checkbox" && event.target.tagName !== "SELECT") answer();
  });
  holder.replaceChildren(node);
  answer();
  holder.setAttribute("data-rb-ready", "");
}

async function start(holder) {
  let form;
  try {
    form = JSON.parse(holder.getAttribute("data-form"));
    const module = await import(new URL(`./rulebook/${form.module}.js`, import.meta.url).href);
    build(holder, form, module);
  } catch (error) {
    holder.textContent = visible(`The form of this rule could not be made: ${error.message}`);
    console.error(error);
  }
}

document.querySelectorAll("div.rulebook-try[data-form]").forEach(start);
