/**
 * Staged tracks: effects rolled on a die, each roll moving one effect a stage
 * on (the JavaScript twin of the Python runtime's _track.py).
 */

import { RuleInputError } from "./errors.js";
import { dict, folded, reprString, shown } from "./_support.js";
import { toData } from "./json.js";

/**
 * One character's place on every effect of a track.
 *
 * `effects` lists, in die order, each effect (a label) with its conditions
 * (stage 1 first); an effect with no stages marks a point every time. An
 * effect the character already has, or whose next condition the character
 * already suffers, moves on a stage; past the last stage the roll is a reroll
 * and the effect stays at its last stage.
 */
export class StagedTrack {
  #effects;
  #stage = new Map();

  constructor(effects) {
    this.#effects = Object.freeze(
      [...effects].map(([effect, stages]) => Object.freeze([effect, Object.freeze([...stages])])),
    );
  }

  /** The stage the character is at on `effect` (0: not yet): a label, in any
   * case; anything else is refused with `RuleInputError`. */
  stage(effect) {
    const key = folded(effect);
    for (const [known] of this.#effects) {
      if (effect === known || (key !== null && key === folded(known))) {
        return this.#stage.get(known) ?? 0;
      }
    }
    const labels = this.#effects.map(([known]) => reprString(known)).join(", ");
    throw new RuleInputError(`effect must be one of ${labels}, not ${shown(effect)}`);
  }

  /** Every effect the character has, with its stage (an object by label,
   * without a prototype). */
  get stages() {
    return dict(this.#stage);
  }

  /** The conditions the character suffers now, one per staged effect. */
  get conditions() {
    const found = [];
    for (const [effect, stages] of this.#effects) {
      const at = this.#stage.get(effect) ?? 0;
      if (stages.length && at && !found.includes(stages[at - 1])) found.push(stages[at - 1]);
    }
    return Object.freeze(found);
  }

  /** The track as plain JSON-able data: each effect's stage, the conditions. */
  toDict() {
    return { stages: Object.fromEntries(this.#stage), conditions: toData(this.conditions) };
  }

  toJSON() {
    return this.toDict();
  }

  /** Advance the track; answer [effect, stage, condition, roll again, marked]. */
  step(roll) {
    const count = this.#effects.length;
    if (!Number.isSafeInteger(roll) || roll < 1 || roll > count) {
      throw new RuleInputError(`roll must be an int in 1..${count}, not ${shown(roll)}`);
    }
    const [effect, stages] = this.#effects[roll - 1];
    if (!stages.length) {
      this.#stage.set(effect, 1);
      return [effect, 1, null, false, true];
    }
    let stage = (this.#stage.get(effect) ?? 0) + 1;
    if (stage <= stages.length) {
      const suffered = this.conditions;
      while (stage <= stages.length && suffered.includes(stages[stage - 1])) stage += 1;
    }
    if (stage > stages.length) {
      this.#stage.set(effect, stages.length);
      return [effect, stages.length + 1, null, true, false];
    }
    this.#stage.set(effect, stage);
    return [effect, stage, stages[stage - 1], false, false];
  }
}
