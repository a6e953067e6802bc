/**
 * Dice unique: the exact odds of a pool whose dice show different faces (`u`:
 * a die showing an earlier die's face is rolled again), and their steps.
 *
 * Where every face is as likely, the faces the pool shows are a set of
 * `count` of them, each set as likely: a dynamic programme over the faces in
 * order (best first), each taken or not, a state how many are taken and the
 * score of those kept. Otherwise (a die listing a face more than once, such
 * as `dF.1`) the dice are followed one by one, a state the faces shown so far.
 * Pure functions of the faces' weights: ./dice_odds.js makes them weights.
 */

/** Whether all of `weights` (bigints) are equal. */
function even(weights) {
  return weights.every((w) => w === weights[0]);
}

function choose(n, k) {
  let found = 1n;
  for (let i = 1n; i <= k; i++) found = (found * (n - k + i)) / i;
  return found;
}

function gcd(a, b) {
  let [x, y] = [a, b];
  while (y) [x, y] = [y, x % y];
  return x;
}

/**
 * The score of the `keep` best of `count` different faces (`faces`: a list of
 * [face, weight], each face once; `highest`: the best are the highest;
 * `score`: a kept face's score), as [Map score -> weight, denominator].
 */
export function uniqueWeights(faces, count, keep, highest, score) {
  const ranked = [...faces].sort((a, b) => (highest ? b[0] - a[0] : a[0] - b[0]));
  const found = new Map();
  const put = (value, weight) => found.set(value, (found.get(value) ?? 0n) + weight);
  if (even(ranked.map(([, w]) => w))) {
    let states = new Map([["0,0", [0, 0, 1n]]]);
    ranked.forEach(([face], i) => {
      const after = new Map();
      const left = ranked.length - i - 1; // faces after this one
      for (const [taken, sofar, ways] of states.values()) {
        const options = [[taken, sofar]];
        if (taken < count) options.push([taken + 1, sofar + (taken < keep ? score(face) : 0)]);
        for (const [t, s] of options) {
          if (t + left < count) continue; // too few faces left to take
          const key = `${t},${s}`;
          const had = after.get(key);
          if (had === undefined) after.set(key, [t, s, ways]);
          else had[2] += ways;
        }
      }
      states = after;
    });
    for (const [, s, ways] of states.values()) put(s, ways);
    return [found, choose(BigInt(ranked.length), BigInt(count))];
  }
  // the dice one by one: a state the faces shown so far (a bit each), its weight
  const total = ranked.reduce((n, [, w]) => n + w, 0n);
  let states = new Map([[0, 1n]]);
  let denom = 1n;
  for (let die = 0; die < count; die++) {
    const after = new Map();
    let scale = 1n; // a common denominator of this die's chances
    for (const mask of states.keys()) scale = lcm(scale, left(mask));
    for (const [mask, weight] of states) {
      const per = scale / left(mask);
      ranked.forEach(([, w], i) => {
        if (mask & (1 << i)) return;
        const next = mask | (1 << i);
        after.set(next, (after.get(next) ?? 0n) + weight * w * per);
      });
    }
    states = after;
    denom *= scale;
  }
  for (const [mask, weight] of states) {
    let s = 0;
    let kept = 0;
    ranked.forEach(([face], i) => {
      if (!(mask & (1 << i))) return;
      if (kept < keep) s += score(face);
      kept += 1;
    });
    put(s, weight);
  }
  return [found, denom];

  function left(mask) {
    return ranked.reduce((n, [, w], i) => (mask & (1 << i) ? n - w : n), total);
  }
}

function lcm(a, b) {
  return (a / gcd(a, b)) * b;
}
