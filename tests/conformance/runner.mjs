// Conformance runner for JavaScript: every case of every conformance kit made
// on a generated JavaScript package, in one Node process.
//
// The file RULEBOOK_KITS names holds {package, kits: [{file, spell, words}]}:
// the package's folder, and for each kit (generated/conformance/<system>.json)
// how this runtime spells the rules' names (`spell.name`: functions, classes,
// constants, parameters; `spell.field`: a record's fields and methods; `spell.member`: a
// state's fields and transitions; a name missing is spelt as it is) and
// `words`, each such spelling back to the rules' name (for refusals). Prints
// {"cases": n, "failed": [...]} as JSON; exits 0 either way.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const given = JSON.parse(readFileSync(process.env.RULEBOOK_KITS, "utf8"));
const pkg = pathToFileURL(given.package + "/").href;
const load = async (name) => import(new URL(name, pkg).href);
const { Scripted } = await load("dice.js");
const { Random } = await load("random.js");
const { RulebookError } = await load("errors.js");
const { dumps, toData } = await load("json.js");

const own = (object, key) => (Object.hasOwn(object, key) ? object[key] : key);

function argumentsOf(items, rng, spell) {
  const positional = [];
  const options = Object.create(null);
  let anyOption = false;
  for (const item of items) {
    const value = item.rng ? rng : item.skip ? undefined : item.value;
    if (item.option) {
      options[item.rng ? "rng" : own(spell.name, item.name)] = value;
      anyOption = true;
    } else {
      positional.push(value);
    }
  }
  if (anyOption) positional.push(options);
  return positional;
}

function make(module, call, rng, spell) {
  let value;
  if (call.constant !== undefined) {
    value = module[own(spell.name, call.constant)];
  } else {
    const target = module[own(spell.name, call.function ?? call.class)];
    const args = argumentsOf(call.args, rng, spell);
    value = call.class !== undefined ? new target(...args) : target(...args);
  }
  for (const step of call.then ?? []) {
    if (step.field !== undefined) {
      value = value[own(spell.field, step.field)];
    } else if (step.call !== undefined) {
      value = value[own(spell.field, step.call)](...argumentsOf(step.args, rng, spell));
    } else if (step.fields !== undefined) {
      const found = Object.create(null); // a field may be named "__proto__"
      for (const name of step.fields) found[name] = value[own(spell.member, name)];
      value = found;
    } else if (step.member !== undefined) {
      value[own(spell.member, step.member)](...argumentsOf(step.args, rng, spell));
    } else if (step.each !== undefined) {
      const object = value;
      value = step.each.map((items) => object[step.method](...argumentsOf(items, rng, spell)));
    } else {
      value = value[step.method](...argumentsOf(step.args, rng, spell));
    }
  }
  return value;
}

// A refusal's message by the rules' names: each spelling of `words` replaced,
// in one pass, never inside a word nor after a quote.
function neutral(message, words) {
  const keys = Object.keys(words).sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
  if (keys.length === 0) return message;
  const escaped = keys.map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const pattern = new RegExp(`(?<![\\w'])(?:${escaped.join("|")})(?![\\w])`, "g");
  return message.replace(pattern, (word) => words[word]);
}

function rngOf(item) {
  if (item.dice !== undefined) return new Scripted(item.dice);
  if (item.seed !== undefined) return new Random(item.seed);
  return null;
}

function check(module, item, spell, words) {
  const rng = rngOf(item);
  let value;
  try {
    value = make(module, item.call, rng, spell);
  } catch (error) {
    if (!(error instanceof RulebookError)) return `threw ${error}`;
    const refusal = item.refusal;
    const said = { error: error.name, message: error.message };
    if (refusal !== undefined && said.error === refusal.error) {
      if (refusal.message === said.message || refusal.message === neutral(said.message, words)) return null;
    }
    return `refused ${JSON.stringify(said)}; the kit: ${JSON.stringify(refusal ?? item.answer)}`;
  }
  if (item.refusal !== undefined) return `answered, but the kit refuses: ${JSON.stringify(item.refusal)}`;
  const text = JSON.stringify(toData(value));
  const expected = JSON.stringify(item.answer);
  if (text !== expected) return `answered ${text}, the kit ${expected}`;
  // dumps's text is the same JSON (JSON.parse puts integer-like keys first, so
  // the kit's own order of them is not at hand here: Python's runner checks it)
  if (JSON.stringify(JSON.parse(dumps(value))) !== expected) return `dumps ${dumps(value)}`;
  if (JSON.stringify(value) !== expected) return `JSON.stringify ${JSON.stringify(value)}`;
  if (item.dice !== undefined && rng.remaining !== 0) return `${rng.remaining} scripted dice were not used`;
  return null;
}

const failed = [];
let cases = 0;
for (const { file, spell, words } of given.kits) {
  const kit = JSON.parse(readFileSync(file, "utf8"));
  const module = await load(`${kit.system}.js`);
  for (const item of kit.cases) {
    cases += 1;
    let problem;
    try {
      problem = check(module, item, spell, words);
    } catch (error) {
      problem = `the runner failed: ${error}`;
    }
    if (problem !== null) failed.push(`${item.rule} ${item.case}: ${problem}`);
  }
}
process.stdout.write(JSON.stringify({ cases, failed }));
