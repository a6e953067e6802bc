// A consumer of the generated package, type-checked by tsc --strict: the
// types say what the runtime answers, and refuse what it refuses.
import { Dice, Random, RuleInputError, Scripted, dumps, toData } from "../../generated/js/index.js";
import type { Fraction, JSON, RNG } from "../../generated/js/index.js";
import {
  CoverLevel,
  RadiationLevel,
  attackThroughCover,
  cover,
  crawlSpeed,
  radiationExposure,
  spinSave,
} from "../../generated/js/d20_scifi.js";
import type { CoverAttack, CoverRow, SpinSave } from "../../generated/js/d20_scifi.js";
import { exposureBehindCover, HitLocation } from "../../generated/js/gurps.js";

const half: CoverLevel = CoverLevel.HALF;
const given: string = "total";
const checked: CoverLevel = CoverLevel.of(given); // a string from outside, checked
const row: CoverRow = cover(half);
const ac: number | null = row.coverAc;
const attack: CoverAttack = attackThroughCover("1/2", "soft", "heavy", "at_target", {
  warheadPenetrates: false,
});
const allowed: boolean = attack.allowed;
const order: -1 | 0 | 1 = RadiationLevel.compare("High", "Low");
const incubation: Dice = radiationExposure(RadiationLevel.HIGH).incubation;
const mean: Fraction = incubation.mean;
const chances: Map<number, Fraction> = incubation.distribution();
const rng: RNG = new Random(7);
const rolled: number = incubation.roll(rng) + incubation.roll(new Scripted([1, 2, 3]));
const save: SpinSave | null = spinSave(12);
const speed: number = crawlSpeed(2, 1);
const exposure: Readonly<Record<HitLocation, string>> = exposureBehindCover(2, {
  narrowSlit: true,
});
const data: JSON = toData(row);
const rowJson: { coverage: string; cover_ac: number | null } = row.toJSON();
const incubationJson: { notation: string } = radiationExposure("High").toJSON().incubation;
const text: string = dumps(attack, { indent: 2, sortKeys: true });
const big: bigint = new Random(2n ** 70n).getrandbits(80);

// @ts-expect-error rows are read-only
row.coverAc = 3;
// @ts-expect-error labels are the rules' own
const wrong: CoverLevel = "half";
// @ts-expect-error options are named
attackThroughCover("1/2", "soft", "heavy", "at_target", { penetrates: true });

function refused(error: unknown): string {
  return error instanceof RuleInputError ? error.message : String(error);
}

export const used = [
  ac, allowed, order, mean, chances, rolled, save, speed, exposure, data, text, big,
  wrong, refused, rowJson, incubationJson, checked,
];
