/** Errors thrown by the generated rules runtime. */

/** The base class of every error the runtime throws. */
export class RulebookError extends Error {
  constructor(message) {
    super(message);
    this.name = new.target.name;
  }
}

/**
 * A rule was called with an argument it cannot answer for.
 *
 * Thrown for unknown labels, wrong types (a boolean is not an integer),
 * integers out of range (or past Number.MAX_SAFE_INTEGER) and scripted dice
 * that run out or leave their die's range.
 */
export class RuleInputError extends RulebookError {}

/**
 * A value that is no value of the runtime, given to json.js's `toData` or
 * `dumps` (the Python runtime's RuleTypeError, which is a TypeError too; here
 * a RuleInputError only): an object of no runtime type, a number that is NaN
 * or infinite, a value nested more than MAX_NESTING levels deep, a Map two of
 * whose keys are written as one JSON key.
 */
export class RuleTypeError extends RuleInputError {}
