// Call plans (compiler/emit/javascript/plan.py: a rule's call spelt for
// JavaScript) made on the JavaScript runtime; the Python twin makes the call
// itself (compiler/emit/python/calls.py). The reference's forms make them too,
// so both use one runner: docsite/plan.js (the site ships it).

export { runPlan } from "../../docsite/plan.js";
