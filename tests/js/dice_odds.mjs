// Reads a JSON list of cases ({text, depth}; {pool, depth}: a pool's count,
// sides and options, each condition a list of [op, value]; or {tree, depth}:
// a whole expression as tests/test_js_dice_odds.py writes it) from the file
// RULEBOOK_JS_CASES names and prints, for each, what the generated JavaScript
// package answers:
// the notation read back, the steps its odds take (worked out before them) and
// the exact odds (`dumps` text, mean, variance), or the refusal (its class,
// message, offset and hint). One process for every case
// (tests/test_js_dice_odds.py compares them with Python's and icepool's).
import { readFileSync } from "node:fs";
import {
  AnyOf,
  Binary,
  Call,
  Compare,
  DiceSum,
  Group,
  Labeled,
  Test,
  DiceSyntaxError,
  Pool,
  RuleInputError,
  Term,
  dumps,
  odds,
  parseNotation,
} from "../../generated/js/index.js";
import { fraction } from "../../generated/js/_support.js";
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

function pool({ count, sides, ...options }) {
  for (const name of ["reroll", "explodeAt", "target", "failure"]) {
    if (options[name]) options[name] = condition(options[name]);
  }
  return new Pool(count, sides, options);
}

/** A node of a tree as the test writes it (each kind a key). */
function node(spec) {
  if (typeof spec === "number") return spec;
  const [kind, value] = Object.entries(spec)[0];
  const of = (nodes) => nodes.map(node);
  switch (kind) {
    case "fraction":
      return fraction(BigInt(value[0]), BigInt(value[1]));
    case "pool":
      return pool(value);
    case "sum":
      return new DiceSum(value.map(([sign, n]) => new Term(sign, node(n))));
    case "binary":
      return new Binary(value[0], node(value[1]), node(value[2]));
    case "test":
      return new Test(value[0], node(value[1]), node(value[2]));
    case "call":
      return new Call(value[0], of(value[1]));
    case "label":
      return new Labeled(node(value[0]), value[1]);
    default: {
      const { keep, keepCount, target, failure } = spec;
      const options = { keep, keepCount, target: target && condition(target), failure: failure && condition(failure) };
      return new Group(of(value), options);
    }
  }
}

function made(spec) {
  return new DiceSum([new Term(1, pool(spec))]);
}

function answer({ text, pool, tree, depth }) {
  let dice;
  try {
    dice = tree !== undefined ? node(tree) : text === undefined ? made(pool) : parseNotation(text);
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
