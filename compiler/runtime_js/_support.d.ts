/** Support for the generated rule modules: argument checks, labels, integers, the limit. */
import type { RuleInputError } from "./errors.js";
import type { Fraction } from "./dice.js";

/** The most entries (list items, events, die rolls) one call of the runtime makes. */
export declare const MAX_ENTRIES: number;
/** The most levels of arrays and objects one within another json.js writes. */
export declare const MAX_NESTING: number;
/** The ways each sum of `count` dice of `sides` comes up (index i: the sum count + i). */
export declare function countSums(count: number, sides: number): bigint[];
export declare const LIMIT_NOTE: string;
export declare function grouped(n: number): string;
export declare function folded(value: unknown): string | null;
export declare function reprString(text: string): string;
export declare function shown(value: unknown): string;
export declare function isInt(value: unknown): value is number;
export declare function badInt(value: unknown, name: string, lo: number | null, hi: number | null): RuleInputError;
export declare function pastLimit(value: number, name: string, lo: number, hi: number): RuleInputError;
export declare function notOneOf(value: number, name: string, values: readonly number[]): RuleInputError;
export declare function tooMany(what: string): RuleInputError;
/** The most steps one call takes working out exact odds. */
export declare const MAX_WORK: number;
/** The outermost call under way: the calls of rules it has made, the steps of odds work it has taken. */
export declare const CALL: { depth: number; calls: number; work: bigint };
/** A call of a rule begins (counted when another is under way; refused past MAX_ENTRIES). */
export declare function enterCall(): void;
/** A call of a rule ends. */
export declare function leaveCall(): void;
export declare function bitLength(n: bigint): number;
export declare function weighed(steps: bigint, bits: number, products?: boolean): bigint;
/** Count steps of odds work before taking them (RuleInputError past MAX_WORK). */
export declare function spend(steps: bigint | number, hint?: string): void;
export declare function badBool(value: unknown, name: string): RuleInputError;
export declare function exact(value: number): number;
export declare function floorDiv(a: number, b: number): number;
export declare function ceilDiv(a: number, b: number): number;
export declare function roundDiv(a: number, b: number): number;
export declare function add<T extends number | string>(a: T, b: T): T;
export declare function sum(values: Iterable<number>): number;
/** A fresh object without a prototype: its keys are data ("__proto__" too). */
export declare function dict<T>(entries?: Iterable<readonly [string, T]>): Record<string, T>;
/** `object`'s own property `key` (never an inherited one), or undefined. */
export declare function own(object: object, key: PropertyKey): unknown;
export declare function unlessNull<K, T>(key: K | null, body: (key: K) => T): T | null;

/** A frozen object of labels by member name, with `of` (ladders also have `compare`). */
export declare function labels<T extends Record<string, string>>(name: string, members: T, ordered?: boolean): Readonly<T>;
export declare function labelsOf(kind: object): readonly string[];
export declare function choice(kind: object, value: unknown, name: string): string;
export declare function mapping(keys: object, values: object, value: unknown, name: string): Readonly<Record<string, string>>;
/** The rank of a label along its ordered enum `kind` (lowest first, from 0). */
export declare function rank(kind: object, label: string): number;
export declare function step(kind: object, label: string | null, by: number, pastEnd: string): string | null;
export declare function options(given: unknown, names: readonly string[], fn: string): Record<string, unknown>;

/** The greatest common divisor of two bigints (0n for 0n and 0n). */
export declare function gcd(a: bigint, b: bigint): bigint;
export declare function fraction(n: bigint | number, d?: bigint | number): Fraction;
export declare function isFraction(value: unknown): value is Fraction;
export declare function addFractions(a: Fraction, b: Fraction): Fraction;
export declare function mulFractions(a: Fraction, b: Fraction): Fraction;
export declare function divFractions(a: Fraction, b: Fraction): Fraction;
export declare function fractionText(value: Fraction): string;
