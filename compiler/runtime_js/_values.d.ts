/** Values: arguments of any type checked (lists, records, texts), a list's item by its position, the highest of a list, and a state changed as a value. */

/** How an argument of one type is checked: the value as the rule reads it, or a RuleInputError naming `name`. */
export type Spec<T> = (value: unknown, name: string) => T;
export declare function int(lo: number | null, hi: number | null): Spec<number>;
export declare function bool(): Spec<boolean>;
export declare function text(): Spec<string>;
export declare function label<T extends string>(kind: object): Spec<T>;
export declare function maybe<T>(inner: Spec<T>): Spec<T | null>;
export declare function stateOf<S extends { $copy(): S }>(kind: abstract new (...args: never[]) => S): Spec<S>;
export declare function listed<T>(item: Spec<T>, lo: number, hi: number | null): Spec<readonly T[]>;
export declare function fields<T>(shape: readonly (readonly [string, string])[], specs: () => readonly (readonly [string, string, Spec<unknown>])[]): Spec<T>;
export declare function item<T>(items: readonly T[], at: number): T;
export declare function most<T>(items: readonly T[], key?: (item: T) => number): T;
export declare function least<T>(items: readonly T[], key?: (item: T) => number): T;
export declare function sortedBy<T>(items: readonly T[], key: (item: T) => number): T[];
export declare function equal(a: unknown, b: unknown): boolean;
export declare function changed<S extends { $copy(): S }>(state: S, change: (state: S) => unknown): S;
export declare function held<S extends { $copy(): S }>(state: S): S;
