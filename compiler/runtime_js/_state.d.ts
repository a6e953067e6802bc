/** States: a level on a ladder, moved by named transitions between a floor and a ceiling; or a record of named fields, changed by transitions. */

/** One subject's level on a ladder of levels, each with an effect. */
export declare class LevelState {
  static $floor: number;
  static $ceiling: number;
  static $levelEffects: readonly string[];
  static $cumulative: boolean;
  constructor(level?: number | null);
  static $checked(value: unknown, name: string, lo: number, hi: number | null): number;
  /** The current level (0: none). */
  readonly level: number;
  /** What the current level means, lowest level first. */
  readonly effects: readonly string[];
  toDict(): { level: number; effects: string[] };
  toJSON(): { level: number; effects: string[] };
  /** Move `steps` levels (negative: down), held between floor and ceiling. */
  $move(steps: number): number;
  /** Go to `level` (checked by the caller). */
  $set(level: number): number;
  equals(other: unknown): boolean;
  toString(): string;
}

/** One subject's state as a record of named fields (numbers and flags). */
/** What a generated state's constructor is given to make a copy. */
export declare const COPY: unique symbol;

export declare class RecordState {
  static $fields: readonly (readonly [string, string])[];
  static $shown: readonly (readonly [string, string])[];
  /** A copy of this state (a state held as a value is changed as a copy). */
  $copy(): this;
  /** The state as plain JSON-able data: each field by its name in the rules, then the derived properties it shows. */
  toDict(): Record<string, unknown>;
  toJSON(): Record<string, unknown>;
  equals(other: unknown): boolean;
  toString(): string;
}
