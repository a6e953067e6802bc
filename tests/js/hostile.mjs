// Labels, keys and options as data, many cases in one Node process (written by
// tests/test_js_hostile.py, which compares what this prints with what the
// Python runtime answers). The cases are JSON in the file RULEBOOK_JS_CASES
// names; the answers are printed as one JSON array, one per case, in order:
// {answer} (JSON text the runtime's dumps wrote) or {raises, message}.
//
// - "mapping": a set of key labels and of value labels, and a mapping given
//   (a plain object, as JSON.parse makes it: "__proto__" an own key), coerced
//   by $.mapping and written by dumps (keys sorted, so both languages agree);
// - "choice": a value, coerced by $.choice;
// - "dumps": JSON data with its dumps options;
// - "literal": a JavaScript string literal the compiler wrote, evaluated;
// - "plans": call plans of a system's module, each made twice: as it is, and
//   again after Object.prototype has been given every name in `pollute`
//   (options of every function, dumps' options, fraction and record names).
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { runPlan } from "./plan.mjs";

const spec = JSON.parse(readFileSync(process.env.RULEBOOK_JS_CASES, "utf8"));
const pkg = pathToFileURL(spec.package + "/").href;
const $ = await import(new URL("_support.js", pkg).href);
const { dumps } = await import(new URL("json.js", pkg).href);
const { RuleInputError } = await import(new URL("errors.js", pkg).href);
const { Scripted } = await import(new URL("dice.js", pkg).href);

function members(labels) {
  return Object.fromEntries(labels.map((label, i) => [`M${i}`, label]));
}

function attempt(body) {
  try {
    return { answer: body() };
  } catch (error) {
    return {
      raises: error instanceof RuleInputError ? "RuleInputError" : error.name,
      message: error.message,
    };
  }
}

function answer(item) {
  switch (item.kind) {
    case "mapping": {
      const keys = $.labels("K", members(item.keys));
      const values = $.labels("V", members(item.values));
      return attempt(() => {
        const coerced = $.mapping(keys, values, JSON.parse(item.given), "given");
        const own = Object.keys(coerced);
        return [dumps(coerced, { sortKeys: true }), own, Object.getPrototypeOf(coerced) === null];
      });
    }
    case "choice": {
      const keys = $.labels("K", members(item.keys));
      return attempt(() => $.choice(keys, JSON.parse(item.value), "given"));
    }
    case "dumps":
      return attempt(() => dumps(JSON.parse(item.data), item.options));
    case "literal":
      return attempt(() => (0, eval)(item.literal));
    default:
      throw new Error(`no case kind ${item.kind}`);
  }
}

async function plans() {
  const found = [];
  for (const group of spec.plans) {
    const module = await import(new URL(`${group.system}.js`, pkg).href);
    for (const item of group.cases) {
      found.push(
        attempt(() => {
          const rng = item.dice === null ? null : new Scripted(item.dice);
          return dumps(runPlan(module, item.plan, rng), { indent: 1 });
        }),
      );
    }
  }
  return found;
}

const out = { cases: spec.cases.map(answer) };
if (spec.plans !== undefined) {
  out.clean = await plans();
  // as an attacker would: plain assignments (enumerable, inherited by all)
  for (const [name, value] of Object.entries(spec.pollute)) Object.prototype[name] = value;
  Object.prototype.numerator = 1n;
  Object.prototype.denominator = 2n;
  Object.prototype.toDict = () => ({ polluted: true });
  out.polluted = await plans();
}
console.log(JSON.stringify(out));
