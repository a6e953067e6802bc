/** Plans of the odds engine: a rule's odds as steps over environments of the values still needed. */
import type { Dist } from "./_dist.js";

/** A step of a plan: `make` of the values `reads` names, binding `binds`. */
export declare class Step {
  constructor(
    make: (...values: never[]) => unknown,
    reads: readonly number[],
    binds: readonly number[],
    source: boolean,
    several?: boolean,
  );
  readonly reads: readonly number[];
  readonly binds: readonly number[];
  readonly source: boolean;
  readonly several: boolean;
}

/** A source: `make(...values read)` is its chances. */
export declare function source(
  make: (...values: never[]) => Dist,
  reads: readonly number[],
  binds: readonly number[],
  several?: boolean,
): Step;

/** A let: `make(...values read)` is its value. */
declare function letStep(make: (...values: never[]) => unknown, reads: readonly number[], bind: number): Step;
export { letStep as let };

/** The chances of the values `answers` names (a list of them) after the steps. */
export declare function run(steps: readonly Step[], answers: readonly number[]): Dist;
