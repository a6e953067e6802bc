// A consumer of the radiation rules of the generated package (d20_scifi),
// type-checked by tsc --strict with consumer.ts (tsconfig.json includes
// every consumer_*.ts): the types say what the runtime answers.
import {
  ACCUMULATION_DEAL,
  ACCUMULATION_INTERVAL_MINUTES,
  ExposureKind,
  RadiationLevel,
  accumulation,
  accumulationAfterSave,
  exposures,
  healing,
  instantExposure,
  instantExposureLevel,
} from "../../generated/js/d20_scifi.js";
import { Random } from "../../generated/js/random.js";
import type { Dice } from "../../generated/js/dice.js";
import type { Exposure, RadiationRow } from "../../generated/js/d20_scifi.js";

const shifted: RadiationRow | null = instantExposure("High");
const from: RadiationLevel | null = instantExposureLevel(RadiationLevel.HIGH);
// @ts-expect-error a shifted row is null where the step falls off the ladder
const always: RadiationRow = instantExposure("Low");

const found: Exposure[] = exposures("High", 30, 7);
const first: Exposure | undefined = found[0];
const kind: ExposureKind | undefined = first?.kind;
const level: RadiationLevel | undefined = first?.effectiveLevel;
const onset: Dice | undefined = first?.incubation;
const starts: number | undefined = first?.startsAtMinutes;
const isFull: boolean = kind === ExposureKind.FULL;
// @ts-expect-error an exposure is read-only
if (first) first.startsAtMinutes = 3;

const heals: Array<readonly [number, number]> = healing(3, 300);
const firstHeal: number | undefined = heals[0]?.[0];
// @ts-expect-error a heal is a read-only pair
heals[0][1] = 2;

const dealt: number[] = accumulation(7, new Random(3), { saved: true });
const left: number = accumulationAfterSave(7) + accumulation(2, new Random(1)).length;
const deal: Dice = ACCUMULATION_DEAL;
const every: number = ACCUMULATION_INTERVAL_MINUTES;
// @ts-expect-error saved is an option, not a positional argument
accumulation(7, new Random(3), true);
// @ts-expect-error options are named
accumulation(7, new Random(3), { save: true });

export const used = [
  shifted, from, always, level, onset, starts, isFull, firstHeal, dealt, left, deal, every,
];
