// Reads a JSON list of cases ({text, seed, depth}) from the file named by
// argv[2] and prints, for each, what the generated JavaScript package answers:
// the notation read back, the steps its odds take (worked out before them), a
// seeded roll and the exact odds as `dumps` text,
// or the refusal (its class, message, offset and hint); and whether
// JSON.stringify writes the same JSON as `dumps` (the roll, the odds and the
// odds' chances). One process for
// every case (tests/test_js_dice_notation.py compares them with Python's).
import { readFileSync } from "node:fs";
import { DiceSyntaxError, Random, RuleInputError, dumps, odds, parseNotation, roll } from "../../generated/js/index.js";
import { total } from "../../generated/js/dice_rolls.js";
import { oddsWork } from "../../generated/js/dice_odds.js";
import { Pool } from "../../generated/js/dice_terms.js";

function refusal(error) {
  if (!(error instanceof RuleInputError)) throw error;
  const found = { error: error.name, message: error.message };
  if (error instanceof DiceSyntaxError) Object.assign(found, { offset: error.offset, hint: error.hint });
  return found;
}

/** Whether JSON.stringify writes the JSON `dumps` writes (JSON.parse puts
 * integer keys first, as JSON.stringify does). */
function stringified(value) {
  return JSON.stringify(value) === JSON.stringify(JSON.parse(dumps(value)));
}

function fractionText(value) {
  if (value === null) return null;
  return value.denominator === 1n ? String(value.numerator) : `${value.numerator}/${value.denominator}`;
}

const cases = JSON.parse(readFileSync(process.argv[2], "utf8"));
const answers = cases.map(({ text, seed, depth }) => {
  let dice;
  try {
    dice = parseNotation(text);
  } catch (error) {
    return { parse: refusal(error) };
  }
  const found = { parse: String(dice) };
  try {
    found.work = String(oddsWork(dice, depth));
  } catch (error) {
    found.work = refusal(error);
  }
  try {
    const rolled = roll(dice, new Random(seed));
    found.roll = { total: rolled.total, results: rolled.results, rolled: rolled.rolled, text: dumps(rolled), stringified: stringified(rolled) };
  } catch (error) {
    found.roll = refusal(error);
  }
  found.totals = dice.terms.filter((term) => term.value instanceof Pool).map((term) => {
    const rng = new Random(seed);
    try {
      const sum = total(term.value, rng);
      return { total: sum, next: rng.randint(1, 10 ** 6) };
    } catch (error) {
      return refusal(error);
    }
  });
  try {
    const chances = odds(dice, depth);
    found.odds = {
      text: dumps(chances),
      mean: fractionText(chances.mean),
      variance: fractionText(chances.variance),
      stringified: stringified(chances) && stringified(chances.chances),
    };
  } catch (error) {
    found.odds = refusal(error);
  }
  return found;
});
console.log(JSON.stringify(answers));
