// Random against CPython's random.Random: for each seed, the draws Python made
// (randint over each range, then getrandbits and random()), as JSON in the
// file RULEBOOK_JS_CASES names (written by tests/test_js_runtime.py).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { pathToFileURL } from "node:url";

const spec = JSON.parse(readFileSync(process.env.RULEBOOK_JS_CASES, "utf8"));
const pkg = pathToFileURL(spec.package + "/").href;
const { Random } = await import(new URL("random.js", pkg).href);

for (const item of spec.seeds) {
  test(`seed ${item.seed}`, () => {
    const rng = new Random(BigInt(item.seed));
    const draws = spec.ranges.map(([a, b]) => {
      const out = [];
      for (let i = 0; i < spec.per_range; i++) out.push(rng.randint(a, b));
      return out;
    });
    assert.deepEqual(draws, item.randint);
    assert.deepEqual(
      spec.bits.map((k) => rng.getrandbits(k).toString()),
      item.getrandbits,
    );
    assert.equal(rng.random(), item.random);
  });
}

test("a number seed is the bigint seed", () => {
  const a = new Random(12345);
  const b = new Random(12345n);
  assert.equal(a.randint(1, 1000000), b.randint(1, 1000000));
});

test("bad arguments are refused", () => {
  assert.throws(() => new Random(1.5), TypeError);
  assert.throws(() => new Random(2 ** 60), TypeError);
  assert.throws(() => new Random(1).randint(3, 2), RangeError);
  assert.throws(() => new Random(1).randint(0, 2 ** 60), TypeError);
});
