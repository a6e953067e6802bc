/**
 * Dice keep after explode: the exact odds of a pool that keeps or drops among
 * ALL its dice, those its explosions add included (`2d6!kh1`, `4d6!pdl1`).
 *
 * Each die of the pool rolls a chain (its face, and the dice its explosion
 * adds): the chains are independent and alike, so the pool is followed chain
 * by chain, a state the dice that decide so far: keeping the highest (or
 * lowest) k, the best k values seen; dropping the highest (or lowest) k, the
 * k values to drop and the score of every die. Pure functions of the chains'
 * outcomes: ./dice_odds.js makes them weights.
 */

/**
 * The score of the dice `keep` (kh, kl, dh, dl) `keepCount` leaves of `count`
 * chains, each chain one of `outcomes` (a list of [its dice's values, weight]),
 * `score` a kept die's: a Map of score -> weight (over the chains' weights'
 * total, to the power `count`, less the chains cut off).
 */
export function keepChains(outcomes, count, keep, keepCount, score) {
  const highest = keep === "kh" || keep === "dh"; // which end `keepCount` picks
  const dropping = keep === "dh" || keep === "dl";
  const better = (a, b) => (highest ? b - a : a - b);
  // a state: [the keepCount values picked so far, best first; the dropping
  // pool's score of every die so far]
  let states = new Map([["|0", [[], 0, 1n]]]);
  for (let i = 0; i < count; i++) {
    const after = new Map();
    for (const [picked, total, ways] of states.values()) {
      for (const [values, weight] of outcomes) {
        const next = [...picked, ...values].sort(better).slice(0, keepCount);
        const sum = dropping ? total + values.reduce((n, v) => n + score(v), 0) : 0;
        const key = `${next.join(",")}|${sum}`;
        const had = after.get(key);
        if (had === undefined) after.set(key, [next, sum, ways * weight]);
        else had[2] += ways * weight;
      }
    }
    states = after;
  }
  const found = new Map();
  for (const [picked, total, ways] of states.values()) {
    const own = picked.reduce((n, v) => n + score(v), 0);
    const value = dropping ? total - own : own;
    found.set(value, (found.get(value) ?? 0n) + ways);
  }
  return found;
}
