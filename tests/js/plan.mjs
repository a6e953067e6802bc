// Call plans (compiler/emit/javascript/plan.py) made on the JavaScript runtime: the twin of
// js_plan.run_python. The reference's forms make them too, so both use one
// runner: docsite/plan.js (the site ships it).

export { runPlan } from "../../docsite/plan.js";
