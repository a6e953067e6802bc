/** Dice: the value type of every dice expression, exact distributions, scripted rolls. */

import { RuleInputError } from "./errors.js";

/** An exact fraction in lowest terms (the denominator positive). */
export interface Fraction {
  readonly numerator: bigint;
  readonly denominator: bigint;
}

/** Anything with `randint(a, b)` answering an integer in a..b: `new Random(seed)` is one. */
export interface RNG {
  randint(a: number, b: number): number;
}

/**
 * The exact chance of each value, in order: a Map whose JSON is the Python
 * runtime's (`{"3": "1/216", ...}`: each value's digits, each chance "n/d").
 */
export declare class Distribution extends Map<number, Fraction> {
  toJSON(): Record<string, string>;
}

/** The dice as plain JSON-able data. */
export interface DiceData {
  notation: string;
  count: number;
  sides: number;
  modifier: number;
  multiplier: number;
  unit: string | null;
}

/**
 * A dice expression: (sum of `count` dice of `sides`) x multiplier + modifier.
 * A constant has `count` 0 (and `sides` 0). Frozen.
 */
export declare class Dice {
  constructor(
    count: number,
    sides: number,
    modifier?: number,
    multiplier?: number,
    unit?: string | null,
  );
  readonly count: number;
  readonly sides: number;
  readonly modifier: number;
  readonly multiplier: number;
  readonly unit: string | null;
  /** The smallest value the expression can give. */
  readonly min: number;
  /** The largest value the expression can give. */
  readonly max: number;
  /** The exact expected value. */
  readonly mean: Fraction;
  /** The exact probability of every value, in ascending order of value. */
  distribution(): Distribution;
  /** Roll the dice: one `rng.randint(1, sides)` call per die, in order. */
  roll(rng: RNG): number;
  /** Whether `other` is a Dice of the same figures and unit. */
  equals(other: unknown): boolean;
  /** The dice as plain JSON-able data: their notation and every figure. */
  toDict(): DiceData;
  toJSON(): DiceData;
  /** The notation: `3d6`, `2d6x10`, `1d4+1`, or a constant's value. */
  toString(): string;
}

/** A dice expression that does not parse: `offset` (in code points) is where it went wrong. */
export declare class DiceSyntaxError extends RuleInputError {
  constructor(message: string, offset: number, hint?: string | null);
  readonly offset: number;
  readonly hint: string | null;
}

/** Throw RuleInputError for anything that cannot roll dice. */
export declare function checkRng(rng: unknown): asserts rng is RNG;

/** `rng`'s randint as a function of (a, b); RuleInputError if it has none. */
export declare function randintOf(rng: unknown): (a: number, b: number) => unknown;

/** `randint(a, b)`, checked: an integer in a..b, or a RuleInputError. */
export declare function draw(randint: (a: number, b: number) => unknown, a: number, b: number): number;

/** An rng that returns scripted die results in order (how worked examples fix dice). */
export declare class Scripted implements RNG {
  constructor(results: Iterable<number>);
  /** How many scripted results are still unused. */
  readonly remaining: number;
  randint(a: number, b: number): number;
  toString(): string;
}
