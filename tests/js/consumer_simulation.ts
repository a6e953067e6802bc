// A consumer of the simulation rules of the generated package (d20_scifi): a
// staged track and a process, type-checked by tsc --strict with consumer.ts.
import { Random, Scripted } from "../../generated/js/index.js";
import {
  RadiationCondition,
  SECONDARY_EFFECTS_EVERY,
  SECONDARY_EFFECTS_ROLL,
  SecondaryEffect,
  SecondaryEffects,
  simulateRadiation,
} from "../../generated/js/d20_scifi.js";
import type { Dice } from "../../generated/js/dice.js";
import type {
  RadiationLevel,
  RadiationTimeline,
  SecondaryOutcome,
  TimelineEvent,
  TimelineEventKind,
} from "../../generated/js/d20_scifi.js";

const track = new SecondaryEffects();
const outcome: SecondaryOutcome = track.apply(1);
const effect: SecondaryEffect = outcome.effect;
const condition: RadiationCondition | null = outcome.condition;
const permanent: boolean = outcome.permanentPoint;
const stage: number = track.nausea;
const suffered: readonly RadiationCondition[] = track.conditions;
const roll: Dice = SECONDARY_EFFECTS_ROLL;
const every: number = SECONDARY_EFFECTS_EVERY;
// @ts-expect-error an outcome is read-only
outcome.stage = 2;
// @ts-expect-error the track's effects are the rules' own
track.nausia;
// @ts-expect-error a stage changes only by apply()
track.nausea = 2;

const run: RadiationTimeline = simulateRadiation("High", 30, 2, new Random(7));
const replayed: RadiationTimeline = simulateRadiation(
  "Low",
  5,
  0,
  new Scripted([3, 1, 1]),
);
const first: TimelineEvent | undefined = run.events[0];
const kind: TimelineEventKind | undefined = first?.kind;
const minute: number | undefined = first?.minute;
const level: RadiationLevel | null | undefined = first?.level;
const dealt: number = run.conDamageDealt;
const conditions: readonly RadiationCondition[] = run.conditions;
const eventKind: TimelineEventKind | undefined = run.toJSON().events[0]?.kind;
const headache: number = track.toJSON().headache_pain;
const sufferedJson: RadiationCondition[] = track.toDict().conditions;
// @ts-expect-error the rng comes last, and is needed
simulateRadiation("High", 30, 2);
// @ts-expect-error an event's kind is one the process records
const wrong: TimelineEventKind = "sneeze";

export const used = [
  effect, condition, permanent, stage, suffered, roll, every, replayed, kind, minute,
  level, dealt, conditions, wrong, eventKind, headache, sufferedJson,
];
