// Reads {cases: [{text, seed, bareD6}, ...]} from the JSON file
// RULEBOOK_JS_CASES names and prints, for each, what the generated JavaScript package answers:
// the notation read back (its text and its JSON), a seeded roll (its total,
// the kept dice, every face, its JSON), or the refusal (its class, message,
// offset and hint). One process for every case (tests/test_js_dice_tree.py
// compares them with Python's).
import { readFileSync } from "node:fs";
import { DiceSyntaxError, Random, RuleInputError, dumps, parseNotation, roll } from "../../generated/js/index.js";

function refusal(error) {
  if (!(error instanceof RuleInputError)) throw error;
  const found = { error: error.name, message: error.message };
  if (error instanceof DiceSyntaxError) Object.assign(found, { offset: error.offset, hint: error.hint });
  return found;
}

function text(value) {
  return typeof value === "number" ? String(value) : `${value.numerator}/${value.denominator}`;
}

const { cases } = JSON.parse(readFileSync(process.env.RULEBOOK_JS_CASES, "utf8"));
const answers = cases.map(({ text: given, seed, bareD6 }) => {
  let dice;
  try {
    dice = parseNotation(given, { bareD6 });
  } catch (error) {
    return { parse: refusal(error) };
  }
  const found = { parse: String(dice), pools: dice.pools.length };
  try {
    found.tree = dumps(dice);
  } catch (error) {
    found.tree = refusal(error);
  }
  try {
    const rolled = roll(dice, new Random(seed));
    found.roll = { total: text(rolled.total), results: rolled.results, rolled: rolled.rolled, text: dumps(rolled) };
  } catch (error) {
    found.roll = refusal(error);
  }
  return found;
});
console.log(JSON.stringify(answers));
