// What tsc --strict must refuse in the generated package's types: each line
// marked `expect-error` is an error, and no other line is (tests/test_js_typing.py
// compares the lines tsc reports with the markers, exactly; the twin of
// tests/typecheck/negative.py for Python). Run time would take some of these (a
// label in another case, any string, which it checks); the types are stricter on
// purpose, as Python's are.
import { Random, odds, parseNotation, roll } from "../../generated/js/index.js";
import {
  CoverLevel,
  RadiationLevel,
  SecondaryEffects,
  attackThroughCover,
  cover,
  launchSpeed,
  radiationExposure,
  simulateRadiation,
} from "../../generated/js/d20_scifi.js";
import { HitLocation, attackCoveredTarget, hitLocation, randomHit } from "../../generated/js/gurps.js";
import { concealment, rangedModifier } from "../../generated/js/edge_of_darkness.js";

export function labels(text: string): void {
  cover("Halff"); // expect-error
  cover("half"); // expect-error
  cover(text); // expect-error
  cover(CoverLevel.HALF);
  cover(text as CoverLevel);
  cover(CoverLevel.of(text));
  hitLocation(CoverLevel.of(text)); // expect-error
  hitLocation("Torsoo"); // expect-error
  hitLocation(CoverLevel.HALF); // expect-error
  hitLocation(HitLocation.TORSO);
  radiationExposure("Lowish"); // expect-error
  attackThroughCover("1/2", "soft", "superr", "at_target"); // expect-error
  attackCoveredTarget("aim"); // expect-error
  launchSpeed(1, "one leg"); // expect-error
  concealment("Barely Concealed"); // expect-error
  rangedModifier("Barely concealed", "Partly concealed"); // expect-error
  RadiationLevel.compare("High", "Lowish"); // expect-error
}

export function mappings(): void {
  const rng = new Random(1);
  randomHit(new Map([["Skul", "exposed"]] as const), rng); // expect-error
  randomHit(new Map([["Skull", "exposd"]] as const), rng); // expect-error
  randomHit({ Skull: "exposed" }, rng); // expect-error
}

export function records(): void {
  const row = cover("1/2");
  const ac: number | null = row.coverAc;
  const misspelt = row.coverAC; // expect-error
  row.coverAc = 3; // expect-error
  const hidden: string = row.hideSpotModifier; // expect-error
  const track = new SecondaryEffects();
  const stage: number = track.nausia; // expect-error
  const effect: RadiationLevel = track.apply(1).effect; // expect-error
  const json = row.toJSON().coverAc; // expect-error
  const level: RadiationLevel = radiationExposure("Low").toJSON().fort_dc; // expect-error
  const stageJson: string = track.toJSON().headache_pain; // expect-error
  const total: string = roll(parseNotation("3d6"), new Random(1)).toJSON().total; // expect-error
  const chances = odds(parseNotation("3d6")).toJSON().chance; // expect-error
  const distribution: number = parseNotation("3d6").toJSON().terms; // expect-error
  console.log(ac, misspelt, hidden, stage, effect, json, level, stageJson, total, chances);
  console.log(distribution);
}

export function events(): void {
  const run = simulateRadiation("High", 30, 2, new Random(7));
  simulateRadiation("high", 30, 2, new Random(7)); // expect-error
  for (const event of run.events) {
    if (event.kind === "saves") continue; // expect-error
    if (event.kind === "save") continue;
    const level: CoverLevel | null = event.level; // expect-error
    const minute: string = event.minute; // expect-error
    console.log(level, minute);
  }
  run.events.push(run.events[0]!); // expect-error
  if (run.toJSON().events[0]?.kind === "saves") return; // expect-error
  const minuteJson: number = run.toJSON().events[0]!.minute;
  console.log(minuteJson);
}
