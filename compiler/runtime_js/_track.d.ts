/** Staged tracks: effects rolled on a die, each roll moving one effect a stage on. */

/** One character's place on every effect of a track. */
export declare class StagedTrack<E extends string = string, C extends string = string> {
  constructor(effects: Iterable<readonly [E, readonly C[]]>);
  /** The stage the character is at on `effect` (0: not yet). */
  stage(effect: E): number;
  /** Every effect the character has, with its stage. */
  readonly stages: Partial<Record<E, number>>;
  /** The conditions the character suffers now, one per staged effect. */
  readonly conditions: readonly C[];
  toDict(): { stages: Partial<Record<E, number>>; conditions: C[] };
  toJSON(): { stages: Partial<Record<E, number>>; conditions: C[] };
  /** Advance the track; answer [effect, stage, condition, roll again, marked]. */
  step(roll: number): [E, number, C | null, boolean, boolean];
}
