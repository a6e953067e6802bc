// Conformance of the JavaScript runtime with the Python one, for one system:
// every case (a worked example, a sampled input of `rulesc diff`, a seeded
// run), in groups, is a call plan with the answer the Python runtime gave, as JSON
// in the file RULEBOOK_JS_CASES names (written by tests/test_js_runtime.py).
// The JavaScript answer must be the same JSON (and dumps the same text, and
// JSON.stringify the same JSON, no helper needed); an input Python refuses must
// throw RuleInputError with the same message (in the JavaScript names).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { pathToFileURL } from "node:url";
import { runPlan } from "./plan.mjs";

// The file holds one system's spec, or several (`specs`: the fuzzer's, each
// system built in a package of its own).
const given = JSON.parse(readFileSync(process.env.RULEBOOK_JS_CASES, "utf8"));

async function load(spec) {
  const pkg = pathToFileURL(spec.package + "/").href;
  return {
    module: await import(new URL(`${spec.system}.js`, pkg).href),
    ...(await import(new URL("dice.js", pkg).href)),
    ...(await import(new URL("random.js", pkg).href)),
    ...(await import(new URL("errors.js", pkg).href)),
    ...(await import(new URL("json.js", pkg).href)),
  };
}

function rngOf(item, { Scripted, Random }) {
  if (item.dice !== null && item.dice !== undefined) return new Scripted(item.dice);
  if (item.seed !== null && item.seed !== undefined) return new Random(item.seed);
  return null;
}

// An example's expect: a record's fields (or a mapping's keys) in part, dice
// by their notation, everything else as it is.
function matches(actual, expect) {
  if (expect !== null && typeof expect === "object" && !Array.isArray(expect)) {
    if (actual === null || typeof actual !== "object") return false;
    return Object.entries(expect).every(([k, v]) => k in actual && matches(actual[k], v));
  }
  if (actual !== null && typeof actual === "object" && "notation" in actual) {
    return String(expect) === actual.notation;
  }
  if (Array.isArray(expect)) {
    return (
      Array.isArray(actual) &&
      actual.length === expect.length &&
      actual.every((a, i) => matches(a, expect[i]))
    );
  }
  return actual === expect;
}

function selected(data, select) {
  if (select === null || select === undefined) return data;
  const [field, where] = select;
  return data[field].filter((item) => where.every(([k, v]) => item[k] === v));
}

function check(item, runtime) {
  const { module, RuleInputError, dumps, toData } = runtime;
  const rng = rngOf(item, runtime);
  if (item.python.raises !== undefined) {
    let thrown = null;
    try {
      runPlan(module, item.plan, rng);
    } catch (error) {
      thrown = error;
    }
    assert.ok(thrown instanceof RuleInputError, `${item.name}: threw ${thrown}, not a RuleInputError`);
    assert.equal(thrown.message, item.python.raises, item.name);
    return;
  }
  const value = runPlan(module, item.plan, rng);
  const data = toData(value);
  assert.deepEqual(data, item.python.answer, item.name);
  assert.equal(dumps(value), item.python.text, `${item.name}: dumps`);
  assert.equal(dumps(value, { indent: 2, sortKeys: true }), item.python.indented, `${item.name}: dumps, indented`);
  // JSON.stringify needs no helper: every answer (a record, an event, dice, a
  // distribution, chances, a pool's roll, a state...) is the same JSON.
  assert.equal(JSON.stringify(value), JSON.stringify(item.python.answer), `${item.name}: JSON.stringify`);
  if (item.dice !== null && item.dice !== undefined) {
    assert.equal(rng.remaining, 0, `${item.name}: scripted dice left unused`);
  }
  if (item.expect !== undefined) {
    assert.ok(matches(selected(data, item.select), item.expect), `${item.name}: its expect`);
  }
}

// One test per group (a rule's examples, its samples, its seeded runs).
for (const spec of given.specs ?? [given]) {
  const runtime = await load(spec);
  for (const group of spec.groups) {
    test(group.name, () => {
      for (const item of group.cases) check(item, runtime);
    });
  }
}
