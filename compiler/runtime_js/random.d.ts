/**
 * CPython's random.Random for integer seeds, draw for draw: the same
 * Mersenne Twister, seeding, getrandbits and randint.
 */
export declare class Random {
  /**
   * @param seed an integer (a safe integer number, or any bigint); its sign
   *   is ignored, as in CPython. Without one, seeded from Math.random().
   */
  constructor(seed?: number | bigint | null);
  /** Seed the generator again, as the constructor does. */
  seed(seed?: number | bigint | null): void;
  /** A float in [0, 1), as CPython's random() makes it. */
  random(): number;
  /** An integer of `k` random bits (CPython's getrandbits). */
  getrandbits(k: number): bigint;
  /** A random integer in a..b, both included, as CPython's randint draws it. */
  randint(a: number, b: number): number;
}
