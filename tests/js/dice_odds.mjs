// Reads a JSON list of cases ({text, depth}, or {pool, depth}: a pool's count,
// sides and options, each condition a list of [op, value]) from the file
// RULEBOOK_JS_CASES names and prints, for each, what the generated JavaScript
// package answers:
// the notation read back, the steps its odds take (worked out before them) and
// the exact odds (`dumps` text, mean, variance), or the refusal (its class,
// message, offset and hint). One process for every case
// (tests/test_js_dice_odds.py compares them with Python's and icepool's).
import { readFileSync } from "node:fs";
import {
  AnyOf,
  Compare,
  DiceSum,
  DiceSyntaxError,
  Pool,
  RuleInputError,
  Term,
  dumps,
  odds,
  parseNotation,
} from "../../generated/js/index.js";
import { oddsWork } from "../../generated/js/dice_odds.js";

function refusal(error) {
  if (!(error instanceof RuleInputError)) throw error;
  const found = { error: error.name, message: error.message };
  if (error instanceof DiceSyntaxError) Object.assign(found, { offset: error.offset, hint: error.hint });
  return found;
}

function fractionText(value) {
  if (value === null) return null;
  return value.denominator === 1n ? String(value.numerator) : `${value.numerator}/${value.denominator}`;
}

/** A condition of a pool spec: one [op, value], or several (any of them). */
function condition(pairs) {
  const each = pairs.map(([op, value]) => new Compare(op, value));
  return each.length === 1 ? each[0] : new AnyOf(each);
}

function made({ count, sides, ...options }) {
  for (const name of ["reroll", "explodeAt", "target", "failure"]) {
    if (options[name]) options[name] = condition(options[name]);
  }
  return new DiceSum([new Term(1, new Pool(count, sides, options))]);
}

function answer({ text, pool, depth }) {
  let dice;
  try {
    dice = text === undefined ? made(pool) : parseNotation(text);
  } catch (error) {
    return { parse: refusal(error) };
  }
  const found = { parse: String(dice) };
  try {
    found.work = String(oddsWork(dice, depth));
    const chances = odds(dice, depth);
    found.odds = { text: dumps(chances), mean: fractionText(chances.mean), variance: fractionText(chances.variance) };
  } catch (error) {
    found.odds = refusal(error);
  }
  return found;
}

const cases = JSON.parse(readFileSync(process.env.RULEBOOK_JS_CASES, "utf8"));
console.log(JSON.stringify(cases.map(answer)));
