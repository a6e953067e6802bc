// The runtime's engines (a generated track, a success pool's rule, a process) against the
// Python runtime's: the same figures and seeds, the same answers, as JSON in
// the file RULEBOOK_JS_CASES names (written by tests/test_js_engines.py).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { pathToFileURL } from "node:url";

const spec = JSON.parse(readFileSync(process.env.RULEBOOK_JS_CASES, "utf8"));
const pkg = pathToFileURL(spec.package + "/").href;
const load = (name) => import(new URL(name, pkg).href);
const { Random } = await load("random.js");
const { toData } = await load("json.js");
const { SecondaryEffects, simulateRadiation } = await load("d20_scifi.js");

test("a staged track steps as in Python", () => {
  for (const item of spec.tracks) {
    const track = new SecondaryEffects();
    const steps = item.rolls.map((roll) => toData(track.apply(roll)));
    assert.deepEqual(steps, item.steps);
    assert.deepEqual(toData(track), item.data);
    assert.equal(item.asked.length, 7);
    for (const asked of item.asked) {
      assert.throws(() => track.apply(asked.roll), { name: "RuleInputError", message: asked.refused });
    }
  }
});

test("a success pool rolls and reckons as in Python", async () => {
  for (const item of spec.pools) {
    const { rollPool, poolDistribution } = await load(item.module);
    for (const [count, want] of item.distributions) {
      assert.deepEqual(toData(poolDistribution(count)), want, `poolDistribution(${count})`);
    }
    for (const [count, seed, want] of item.rolls) {
      assert.deepEqual(toData(rollPool(count, new Random(seed))), want, `rollPool(${count}) seed ${seed}`);
    }
    for (const [count, k, want] of item.at_least) {
      const found = poolDistribution(count).atLeast(k);
      assert.equal(`${found.numerator}/${found.denominator}`, want, `atLeast(${k}) of ${count}`);
    }
  }
});

test("a process runs as in Python, event for event", () => {
  for (const item of spec.processes) {
    const run = simulateRadiation(item.level, item.minutes, item.bonus, new Random(item.seed));
    assert.deepEqual(toData(run), item.run, `${item.level}, ${item.minutes} minutes, seed ${item.seed}`);
  }
});

test("a level state moves as in Python", async () => {
  const { LevelState } = await load("_state.js");
  for (const item of spec.states) {
    class Subject extends LevelState {
      static $floor = item.floor;
      static $ceiling = item.ceiling;
      static $levelEffects = Object.freeze(item.effects);
      static $cumulative = item.cumulative;
    }
    const state = new Subject(item.start);
    const seen = item.moves.map((steps) => [state.$move(steps), toData(state)]);
    assert.deepEqual(seen, item.seen);
  }
  assert.throws(() => new (class extends LevelState { static $ceiling = 2; })(3), /level must be an int in 0\.\.2, not 3/);
});
