/**
 * Plans of the odds engine: a rule's odds as steps over environments of the
 * values still needed (the JavaScript twin of the Python runtime's _plan.py:
 * the same algorithm step for step, the same work counted).
 *
 * A generated `<function>Odds` hands the engine a plan: its sources (a dice
 * total, a pool read through folds, a call of a rule that rolls) and its
 * lets, in the rule's order, then the values it answers (by number). The
 * engine keeps one distribution over environments (the values later steps
 * still read), adds one source at a time (each environment with each value
 * of the source), works each let out once per environment, and after each
 * step keeps only what later steps read, merging the environments that
 * become equal. A source reading values is worked out once for each of their
 * values; one whose value nothing reads only weighs each environment by its
 * chance of being known. Each step's work is counted before it is done. A
 * comprehension whose body or test rolls is a source (`each`): its list, made
 * item by item from runs of its test's and its body's plans.
 */

import { Dist, kept, lcm } from "./_dist.js";
import { MAX_ENTRIES, bitLength, spend, tooMany, weighed } from "./_support.js";

/** A step of a plan: `make` of the values `reads` names, binding `binds`. */
export class Step {
  constructor(make, reads, binds, source, several = false) {
    this.make = make;
    this.reads = reads;
    this.binds = binds;
    this.source = source;
    this.several = several;
  }
}

/** A source: `make(...values read)` is its chances. */
export function source(make, reads, binds, several = false) {
  return new Step(make, reads, binds, true, several);
}

/** A let: `make(...values read)` is its value. */
function letStep(make, reads, bind) {
  return new Step(make, reads, [bind], false);
}

export { letStep as let };

const keyOf = (key) => JSON.stringify(key);

/** The chances of the values `answers` names (an array of them) after the steps. */
export function run(steps, answers) {
  const liveAfter = live(steps, answers);
  let layout = [];
  let env = new Map([[keyOf([]), [[], 1n]]]);
  let denom = 1n;
  let cut = 0n;
  steps.forEach((step, i) => {
    const after = liveAfter[i];
    if (after === null) return; // a let nothing reads
    const at = new Map(layout.map((v, j) => [v, j]));
    const reads = step.reads.map((v) => at.get(v));
    const ext = [...layout, ...step.binds];
    const keep = [];
    ext.forEach((v, j) => {
      if (after.has(v)) keep.push(j);
    });
    if (step.source) [env, denom, cut] = added(env, denom, cut, step, reads, keep, layout.length);
    else env = worked(env, denom, step, reads, keep);
    layout = keep.map((j) => ext[j]);
    if (env.size > MAX_ENTRIES) throw tooMany("environments of odds");
  });
  const at = new Map(layout.map((v, j) => [v, j]));
  const pick = answers.map((v) => at.get(v));
  const found = [];
  for (const [key, w] of env.values()) found.push([pick.map((j) => key[j]), w]);
  return new Dist(found, cut, denom);
}

/** The values still read after each step (null for a let nothing reads). */
function live(steps, answers) {
  const now = new Set(answers);
  const found = new Array(steps.length).fill(null);
  for (let i = steps.length - 1; i >= 0; i--) {
    const step = steps[i];
    if (!step.source && !now.has(step.binds[0])) continue;
    found[i] = new Set(now);
    for (const v of step.binds) now.delete(v);
    for (const v of step.reads) now.add(v);
  }
  return found;
}

function put(into, key, weight) {
  const k = keyOf(key);
  const had = into.get(k);
  if (had === undefined) into.set(k, [key, weight]);
  else had[1] += weight;
}

/** Each environment with a let's value, kept as later steps read it. */
function worked(env, denom, step, reads, keep) {
  spend(weighed(BigInt(env.size), bitLength(denom)));
  const found = new Map();
  for (const [key, w] of env.values()) {
    const value = kept(step.make(...reads.map((j) => key[j])));
    const ext = [...key, value];
    put(found, keep.map((j) => ext[j]), w);
  }
  return found;
}

/** Each environment with each value of a source (worked out once for each
 * set of values it reads), kept as later steps read it; where nothing reads
 * it, weighed by its chance of being known. */
function added(env, denom, cut, step, reads, keep, width) {
  const made = new Map();
  const argsOf = (key) => reads.map((j) => key[j]);
  for (const [key] of env.values()) {
    const args = argsOf(key);
    const k = keyOf(args);
    if (!made.has(k)) made.set(k, step.make(...args));
  }
  let common = 1n;
  const known = new Map();
  for (const [k, d] of made) {
    common = lcm(common, d.denom);
    let total = 0n;
    for (const w of d.weights.values()) total += w;
    known.set(k, total);
  }
  const read = keep.some((j) => j >= width);
  let units = 0n;
  for (const [key] of env.values()) {
    units += read ? BigInt(made.get(keyOf(argsOf(key))).weights.size) : 1n;
  }
  spend(weighed(units, bitLength(denom * common)));
  const found = new Map();
  let lost = cut * common;
  for (const [key, w] of env.values()) {
    const k = keyOf(argsOf(key));
    const part = made.get(k);
    const scale = w * (common / part.denom);
    lost += scale * part.cut;
    if (!read) {
      put(found, keep.map((j) => key[j]), scale * known.get(k));
      continue;
    }
    for (const [value, wv] of part.weights) {
      const ext = step.several ? [...key, ...value] : [...key, value];
      put(found, keep.map((j) => ext[j]), scale * wv);
    }
  }
  return [found, denom * common, lost];
}

/** The chances of a comprehension's list, made item by item in order: the
 * chances of the item's test (a run of its plan; null: it always holds),
 * then, where it holds, of its body (each item's dice its own), each list so
 * far extended by each value of the body; the tails of both kept. */
export function each(items, test, body) {
  let held = new Map([[keyOf([]), [[], 1n]]]);
  let denom = 1n;
  let cut = 0n;
  for (const item of items) {
    const tested = test === null ? new Dist([[[true], 1n]], 0n, 1n) : test(item);
    let holds = 0n;
    let fails = 0n;
    for (const [v, w] of tested.weights) {
      if (v[0]) holds += w;
      else fails += w;
    }
    const made = holds ? body(item) : new Dist([], 0n, 1n);
    const scale = tested.denom * made.denom;
    const units = BigInt(held.size) * ((fails ? 1n : 0n) + BigInt(made.weights.size));
    spend(weighed(units, bitLength(denom * scale)));
    let weight = 0n;
    for (const [, w] of held.values()) weight += w;
    cut = cut * scale + weight * tested.cut * made.denom + weight * holds * made.cut;
    const found = new Map();
    for (const [done, w] of held.values()) {
      if (fails) put(found, done, w * fails * made.denom);
      for (const [[value], wv] of made.weights) put(found, [...done, value], w * holds * wv);
    }
    held = found;
    denom *= scale;
    if (held.size > MAX_ENTRIES) throw tooMany("lists of odds");
  }
  return new Dist(held.values(), cut, denom);
}
