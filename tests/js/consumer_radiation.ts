// A consumer of the radiation rules of the generated package (d20_scifi),
// type-checked by tsc --strict with consumer.ts (tsconfig.json includes
// every consumer_*.ts): the types say what the runtime answers.
import { RadiationLevel, instantExposure, instantExposureLevel } from "../../generated/js/d20_scifi.js";
import type { RadiationRow } from "../../generated/js/d20_scifi.js";

const shifted: RadiationRow | null = instantExposure("high");
const from: RadiationLevel | null = instantExposureLevel(RadiationLevel.HIGH);
// @ts-expect-error a shifted row is null where the step falls off the ladder
const always: RadiationRow = instantExposure("Low");

export const used = [shifted, from, always];
