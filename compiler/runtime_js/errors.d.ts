/** Errors thrown by the generated rules runtime. */

/** The base class of every error the runtime throws. */
export declare class RulebookError extends Error {
  constructor(message: string);
}

/**
 * A rule was called with an argument it cannot answer for: an unknown label,
 * a wrong type, an integer out of range (or past Number.MAX_SAFE_INTEGER), or
 * scripted dice that run out or leave their die's range.
 */
export declare class RuleInputError extends RulebookError {}

/**
 * A value that is no value of the runtime, given to `toData` or `dumps`: an
 * object of no runtime type, a number that is NaN or infinite, a value nested
 * more than MAX_NESTING levels deep, a Map two of whose keys are one JSON key.
 */
export declare class RuleTypeError extends RuleInputError {}
