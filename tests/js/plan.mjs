// Call plans (compiler/js_plan.py) made on the JavaScript runtime: the twin of
// js_plan.run_python. A plan names the call in both languages; here the
// positional arguments go in order and the keyword-only ones in the trailing
// options object, as the JavaScript conventions have them. A target marked
// `new` is a class, constructed; steps read a field, call a method (keeping
// the object for `keep`), call it once per argument list (`each`), or gather
// `fields` into a plain object keyed by their Python names.

function argument(item, rng) {
  if (item.rng) return rng;
  if (item.skip) return undefined;
  return item.value;
}

function argumentsOf(items, rng) {
  const positional = [];
  const options = {};
  let anyOption = false;
  for (const item of items) {
    if (item.option) {
      options[item.js] = argument(item, rng);
      anyOption = true;
    } else {
      positional.push(argument(item, rng));
    }
  }
  if (anyOption) positional.push(options);
  return positional;
}

/** The answer of `plan` made on `module`, rolling with `rng`. */
export function runPlan(module, plan, rng) {
  if (!(plan.target.js in module)) {
    throw new Error(`the module has no ${plan.target.js}`);
  }
  let value = module[plan.target.js];
  if (plan.args !== null) {
    const args = argumentsOf(plan.args, rng);
    value = plan.target.new ? new value(...args) : value(...args);
  } else if (plan.target.new) {
    value = new value();
  }
  for (const step of plan.then) {
    if (step.fields !== undefined) {
      const found = {};
      for (const field of step.fields) found[field.py] = value[field.js];
      value = found;
    } else if (step.each !== undefined) {
      const object = value;
      value = step.each.map((items) => object[step.js](...argumentsOf(items, rng)));
    } else if (step.args !== undefined) {
      const answer = value[step.js](...argumentsOf(step.args, rng));
      if (!step.keep) value = answer;
    } else {
      value = value[step.js];
    }
  }
  return value;
}
