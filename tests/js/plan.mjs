// Call plans (compiler/js_plan.py) made on the JavaScript runtime: the twin of
// js_plan.run_python. A plan names the call in both languages; here the
// positional arguments go in order and the keyword-only ones in the trailing
// options object, as the JavaScript conventions have them.

function argument(item, rng) {
  if (item.rng) return rng;
  if (item.skip) return undefined;
  return item.value;
}

/** The answer of `plan` made on `module`, rolling with `rng`. */
export function runPlan(module, plan, rng) {
  if (!(plan.target.js in module)) {
    throw new Error(`the module has no ${plan.target.js}`);
  }
  let value = module[plan.target.js];
  if (plan.args !== null) {
    const positional = [];
    const options = {};
    let anyOption = false;
    for (const item of plan.args) {
      if (item.option) {
        options[item.js] = argument(item, rng);
        anyOption = true;
      } else {
        positional.push(argument(item, rng));
      }
    }
    if (anyOption) positional.push(options);
    value = value(...positional);
  }
  for (const step of plan.then) {
    if (step.args !== undefined) {
      value = value[step.js](...step.args.map((item) => argument(item, rng)));
    } else {
      value = value[step.js];
    }
  }
  return value;
}
