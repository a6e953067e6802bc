/** JSON for every value of the runtime, in the format of the Python runtime's rulebook.json. */

/** Plain JSON-able data. */
export type JSON = boolean | number | string | null | JSON[] | { [key: string]: JSON };

/**
 * The JSON of a value of type `T`, as JSON.stringify writes it: a value with
 * `toJSON` its answer (a record's, dice's, a state's...), an array or an object
 * item by item, anything else as it is.
 */
export type Data<T> = T extends null | string | number | boolean
  ? T
  : T extends { toJSON(): infer J }
    ? J
    : T extends object
      ? { -readonly [K in keyof T]: Data<T[K]> }
      : never;

/** The key under which a record keeps its fields' names. */
export declare const FIELDS: unique symbol;

/** A record's field names: pairs of (JavaScript name, name in the rules data). */
export type Shape = readonly (readonly [string, string])[];

/** A record's field names, shared by every record of one type. */
export declare function shape(...fields: [string, string][]): Shape;

/** A frozen plain object of `values`, a record of `fields`. */
export declare function record<T extends object>(
  fields: Shape,
  values: T,
  methods?: Record<string, (...args: never[]) => unknown>,
): Readonly<T>;

/** `value` as plain JSON-able data: records keyed by their names in the rules data. */
export declare function toData(value: unknown): JSON;

export interface DumpsOptions {
  /** Spaces (or a string) to indent by; none: all on one line. */
  indent?: number | string | null;
  sortKeys?: boolean;
  /** Escape every non-ASCII character (true by default, as in Python). */
  ensureAscii?: boolean;
}

/** `value` as JSON text, as Python's `rulebook.json.dumps(value)` writes it. */
export declare function dumps(value: unknown, options?: DumpsOptions): string;

/** The exact fraction a fraction's JSON text ("n/d", or "n") writes, however many digits it has. */
export declare function fraction(text: unknown): import("./dice.js").Fraction;

/** JSON text as plain data (RuleInputError for text that is not JSON). */
export declare function loads(text: string): JSON;
