// Call plans (compiler/emit/javascript/plan.py: a rule's call, said in the
// rules' names by compiler/core/calls.py, spelt for JavaScript) made on the
// JavaScript runtime: made by the conformance tests (tests/js/plan.mjs) and by
// the reference's "try it" forms (docsite/tryit.js, which the site ships). The
// Python twin makes the call itself (compiler/emit/python/calls.py).
//
// A plan names the call in both languages; here the positional arguments go
// in order and the keyword-only ones in the trailing options object, as the
// JavaScript conventions have them. A target marked `new` is a class,
// constructed; steps read a field, call a method (keeping the object for
// `keep`), call it once per argument list (`each`), or gather `fields` into a
// plain object keyed by their names in the rules (`key`).
//
// A form's plan (compiler/emit/markdown/forms.py) takes its arguments from the form's fields:
// an argument `{field: name}` is that field's value, and a step with
// `each_field` is made once per item of that field's list (its one argument
// list, its argument marked `item` taking the item).

/** A step a plan cannot take: on an answer that is null (`name`: the Python
 * name of what the step would read, when it has one). */
export class PlanProblem extends Error {
  constructor(message, name = null) {
    super(message);
    this.name = "PlanProblem";
    this.field = name;
  }
}

// Names and labels are data here: every object keyed by them has no prototype,
// and only own properties are read (a field, label or option named
// "__proto__", "constructor" or "toString" is a key like any other).
const has = (object, key) => object !== null && object !== undefined && Object.hasOwn(object, key);

function argument(item, rng, values, each) {
  if (item.rng) return rng;
  if (item.skip) return undefined;
  if (item.item) return each;
  if (has(item, "field")) return has(values, item.field) ? values[item.field] : undefined;
  return item.value;
}

function argumentsOf(items, rng, values, each) {
  const positional = [];
  const options = Object.create(null);
  let anyOption = false;
  for (const item of items) {
    if (item.option) {
      options[item.js] = argument(item, rng, values, each);
      anyOption = true;
    } else {
      positional.push(argument(item, rng, values, each));
    }
  }
  if (anyOption) positional.push(options);
  return positional;
}

/** The answer of `plan` made on `module`, rolling with `rng`; a form's fields
 * by name in `values`. */
export function runPlan(module, plan, rng, values = Object.create(null)) {
  if (!has(module, plan.target.js)) {
    throw new Error(`the module has no ${plan.target.js}`);
  }
  let value = module[plan.target.js];
  if (plan.args !== null) {
    const args = argumentsOf(plan.args, rng, values);
    value = plan.target.new ? new value(...args) : value(...args);
  } else if (plan.target.new) {
    value = new value();
  }
  for (const step of plan.then) {
    if (value === null || value === undefined) {
      throw new PlanProblem(`the answer is null: it has no ${step.py ?? "fields"}`, step.py ?? null);
    }
    if (step.fields !== undefined) {
      const found = Object.create(null);
      for (const field of step.fields) found[field.key] = value[field.js];
      value = found;
    } else if (step.each_field !== undefined) {
      const object = value;
      const [items] = step.each;
      value = (has(values, step.each_field) ? values[step.each_field] : []).map((each) =>
        object[step.js](...argumentsOf(items, rng, values, each)),
      );
    } else if (step.each !== undefined) {
      const object = value;
      value = step.each.map((items) => object[step.js](...argumentsOf(items, rng, values)));
    } else if (step.args !== undefined) {
      const answer = value[step.js](...argumentsOf(step.args, rng, values));
      if (!step.keep) value = answer;
    } else {
      value = value[step.js];
    }
  }
  return value;
}
