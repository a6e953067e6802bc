// Dice notation in the generated package's types, checked by tsc --strict:
// parseNotation, roll and odds say what the runtime answers, and refuse what
// it refuses.
import {
  AnyOf,
  Binary,
  Call,
  Compare,
  DiceSum,
  Group,
  Labeled,
  NodeRoll,
  Test,
  DiceSyntaxError,
  Odds,
  Pool,
  Random,
  Rolled,
  Term,
  dumps,
  odds,
  parseNotation,
  roll,
} from "../../generated/js/index.js";
import type { Explode, Fraction, Keep, Node, Num, RolledData } from "../../generated/js/index.js";

const dice: DiceSum = parseNotation("4d6kh3+2");
const gurps: DiceSum = parseNotation("3d", { bareD6: true });
const rolled: Rolled = roll(dice, new Random(7));
const total: Num = rolled.total; // a number when whole, else a fraction
const whole: number | null = typeof total === "number" ? total : null;
const kept: readonly number[] = rolled.results;
const chances: Odds = odds(dice, 3);
const chance: Fraction | undefined = chances.chances.get(12);
const mean: Fraction | null = chances.mean;
const text: string = dumps(chances);
const rolledJson: RolledData = rolled.toJSON();
const tail: string = chances.toJSON().tail;
const first = rolledJson.terms[0];
const keptJson: boolean[] | undefined = typeof first === "object" ? first.kept : undefined;
const tree: Node = new Labeled(new Call("floor", [new Binary("/", new Pool(2, 6), 2)]), "half");
const group = new Group([new Pool(1, 20), tree], { keep: "kh", keepCount: 1, target: new AnyOf([new Compare("=", 1), new Compare(">=", 5)]) });
const test = new Test(">=", group, 3);
const nodeRoll = roll(new DiceSum([new Term(1, test)]), new Random(1)).terms[0];
const parts: number = nodeRoll instanceof NodeRoll ? nodeRoll.parts.length : 0;
const explode: Explode = "!!";
const keep: Keep = "dl";
const pool = new Pool(4, 6, { keep, keepCount: 1, explode, reroll: new Compare("<=", 1) });
const built = new DiceSum([new Term(1, pool), new Term(-1, 2)]);
const same: boolean = built.equals(dice);

function where(error: unknown): number | null {
  return error instanceof DiceSyntaxError ? error.offset : null;
}

// @ts-expect-error the notation is text
parseNotation(420);
// @ts-expect-error options are named
parseNotation("3d", { bare: true });
// @ts-expect-error a term's sign is 1 or -1
new Term(2, 3);
// @ts-expect-error a roll is read-only
rolled.total = 3;
// @ts-expect-error a total may be a fraction
const notWhole: number = roll(dice, new Random(1)).total;
// @ts-expect-error a call names one of the notation's functions
new Call("sqrt", [4]);
// @ts-expect-error not an explosion
const wrong: Explode = "!!!";

export const usedDice = [
  gurps, total, kept, chance, mean, text, same, where, wrong, tail, keptJson,
  whole, parts, notWhole,
];
