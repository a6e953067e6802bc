/**
 * Random: CPython's random.Random for integer seeds, draw for draw.
 *
 * `new Random(seed).randint(a, b)` gives what Python's
 * `random.Random(seed).randint(a, b)` gives, call after call: the same
 * Mersenne Twister (MT19937), seeded as CPython seeds it from an integer (the
 * absolute value's 32-bit words, least significant first, through
 * init_by_array), the same `getrandbits`, and the rejection sampling of
 * `_randbelow_with_getrandbits` (CPython 3.11's Lib/random.py). So a seeded
 * simulation answers alike in both languages.
 */

const N = 624;
const M = 397;
const MATRIX_A = 0x9908b0df;
const UPPER_MASK = 0x80000000;
const LOWER_MASK = 0x7fffffff;
const TWO_32 = 0x100000000;

function isInteger(value) {
  return (
    typeof value === "bigint" ||
    (typeof value === "number" && Number.isSafeInteger(value))
  );
}

function bitLength(n) {
  // n: a non-negative bigint
  return n === 0n ? 0 : n.toString(2).length;
}

/** A Mersenne Twister seeded and drawn from as CPython's random.Random is. */
export class Random {
  #mt = new Uint32Array(N);
  #index = N + 1;

  /**
   * @param {number | bigint} [seed] an integer (a number within
   *   Number.MAX_SAFE_INTEGER, or any bigint); its sign is ignored, as in
   *   CPython. Without one, the generator is seeded from Math.random().
   */
  constructor(seed) {
    this.seed(seed);
  }

  /** Seed the generator again, as the constructor does. */
  seed(seed) {
    if (seed === undefined || seed === null) {
      const words = [];
      for (let i = 0; i < 4; i++) words.push(Math.floor(Math.random() * TWO_32));
      this.#initByArray(words);
      return;
    }
    if (!isInteger(seed)) {
      throw new TypeError(
        `seed must be an integer (a safe integer number or a bigint), not ${String(seed)}`,
      );
    }
    let n = BigInt(seed);
    if (n < 0n) n = -n;
    const words = [];
    while (n > 0n) {
      words.push(Number(n & 0xffffffffn));
      n >>= 32n;
    }
    if (words.length === 0) words.push(0);
    this.#initByArray(words);
  }

  #initGenrand(s) {
    const mt = this.#mt;
    mt[0] = s >>> 0;
    for (let i = 1; i < N; i++) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = (Math.imul(1812433253, prev) + i) >>> 0;
    }
    this.#index = N;
  }

  #initByArray(key) {
    const mt = this.#mt;
    this.#initGenrand(19650218);
    let i = 1;
    let j = 0;
    for (let k = Math.max(N, key.length); k; k--) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(prev, 1664525)) + key[j] + j) >>> 0;
      i++;
      j++;
      if (i >= N) {
        mt[0] = mt[N - 1];
        i = 1;
      }
      if (j >= key.length) j = 0;
    }
    for (let k = N - 1; k; k--) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(prev, 1566083941)) - i) >>> 0;
      i++;
      if (i >= N) {
        mt[0] = mt[N - 1];
        i = 1;
      }
    }
    mt[0] = 0x80000000;
  }

  #next() {
    const mt = this.#mt;
    if (this.#index >= N) {
      let kk = 0;
      let y;
      for (; kk < N - M; kk++) {
        y = (mt[kk] & UPPER_MASK) | (mt[kk + 1] & LOWER_MASK);
        mt[kk] = mt[kk + M] ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
      }
      for (; kk < N - 1; kk++) {
        y = (mt[kk] & UPPER_MASK) | (mt[kk + 1] & LOWER_MASK);
        mt[kk] = mt[kk + (M - N)] ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
      }
      y = (mt[N - 1] & UPPER_MASK) | (mt[0] & LOWER_MASK);
      mt[N - 1] = mt[M - 1] ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
      this.#index = 0;
    }
    let y = mt[this.#index++];
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** A float in [0, 1), as CPython's random() makes it (53 random bits). */
  random() {
    const a = this.#next() >>> 5;
    const b = this.#next() >>> 6;
    return (a * 67108864 + b) * (1 / 9007199254740992);
  }

  /** An integer of `k` random bits, as a bigint (CPython's getrandbits). */
  getrandbits(k) {
    if (!Number.isSafeInteger(k) || k < 0) {
      throw new RangeError(`number of bits must be a non-negative integer, not ${String(k)}`);
    }
    if (k <= 32) return BigInt(this.#bits(k));
    let result = 0n;
    let shift = 0n;
    for (let left = k; left > 0; left -= 32, shift += 32n) {
      let word = this.#next();
      if (left < 32) word >>>= 32 - left;
      result |= BigInt(word) << shift;
    }
    return result;
  }

  #bits(k) {
    return k === 0 ? 0 : this.#next() >>> (32 - k);
  }

  /**
   * A random integer in a..b, both included, drawn as CPython's
   * randint(a, b) draws it.
   */
  randint(a, b) {
    if (!Number.isSafeInteger(a) || !Number.isSafeInteger(b)) {
      throw new TypeError(
        `randint(a, b) takes safe integers, not ${String(a)} and ${String(b)}`,
      );
    }
    const width = b - a + 1;
    if (width <= 0) {
      throw new RangeError(
        `empty range for randrange() (${a}, ${b + 1}, ${width})`,
      );
    }
    if (width < TWO_32) {
      const k = 32 - Math.clz32(width);
      let r = this.#bits(k);
      while (r >= width) r = this.#bits(k);
      return a + r;
    }
    const n = BigInt(b) - BigInt(a) + 1n;
    const k = bitLength(n);
    let r = this.getrandbits(k);
    while (r >= n) r = this.getrandbits(k);
    return Number(BigInt(a) + r);
  }
}
