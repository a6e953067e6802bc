// Values the JSON module writes or refuses, for tests/test_json_refusals.py:
// the cases are JSON in the file RULEBOOK_JS_CASES names ({package, cases}),
// each a value in a tagged form both languages build alike; printed is one
// JSON array, per case {answer} (the text dumps wrote) or {raises, message}.
//
// Tags: ["int", n], ["float", "nan" | "inf" | "-inf" | text], ["str", s],
// ["bool", b], ["null"], ["list", [items]], ["map", [[key, value]...]] (a Map:
// its keys tagged as any value), ["deep", n, leaf] (leaf inside n arrays).
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const spec = JSON.parse(readFileSync(process.env.RULEBOOK_JS_CASES, "utf8"));
const pkg = pathToFileURL(spec.package + "/").href;
const { dumps } = await import(new URL("json.js", pkg).href);

const FLOATS = { nan: NaN, inf: Infinity, "-inf": -Infinity };

function build(tagged) {
  const [tag, a, b] = tagged;
  switch (tag) {
    case "int":
    case "str":
    case "bool":
      return a;
    case "null":
      return null;
    case "float":
      return a in FLOATS ? FLOATS[a] : Number(a);
    case "list":
      return a.map(build);
    case "map":
      return new Map(a.map(([k, v]) => [build(k), build(v)]));
    case "deep": {
      let value = build(b);
      for (let i = 0; i < a; i++) value = [value];
      return value;
    }
    default:
      throw new Error(`no tag ${tag}`);
  }
}

const answers = spec.cases.map((tagged) => {
  try {
    return { answer: dumps(build(tagged), { sortKeys: false }) };
  } catch (error) {
    return { raises: error.constructor.name, message: error.message };
  }
});
console.log(JSON.stringify(answers));
