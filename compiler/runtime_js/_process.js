/**
 * Processes: a seeded, time-ordered simulation of courses, checks and scores
 * (the JavaScript twin of the Python runtime's _process.py, roll for roll).
 *
 * A process runs one or more courses on one clock. A course may wait out an
 * onset (rolled when the process starts, in course order); then it is
 * checked: a die plus a bonus against its target, where declared natural
 * results always fail or always succeed. A course may roll a pool before its
 * check (a success divides it), dealt to a score a roll at a time at a fixed
 * interval; it may deal dice to scores at once on a failed check; it may be
 * checked again at an interval until enough successes in a row end it. Every
 * so many points dealt to a score, a staged track is rolled. Once the source
 * is left and nothing more is owed, a score recovers at a fixed rate, less
 * the points the track marked.
 *
 * Every figure, event name and unit comes from the rules data: this module
 * holds none. Events happen in time order; events at the same time in the
 * order they were scheduled. A run records at most MAX_ENTRIES events. Times,
 * totals and scores are exact integers: one that would pass
 * Number.MAX_SAFE_INTEGER (Python has no such limit) is refused with a
 * RuleInputError.
 *
 * A course and a spec are plain objects with the fields of the Python
 * runtime's Course and ProcessSpec, camelCased; `make(array)` builds one
 * event from [time, kind, ...labels, amount, roll, total, target, success,
 * pool, ...outcome(, level)].
 */

import { MAX_ENTRIES, exact, tooMany } from "./_support.js";

const LEAVE = 0;
const ONSET = 1;
const CHECK = 2;
const DEAL = 3;

function tooManyEvents() {
  return tooMany(
    "events (an rng that keeps rolling the same, or figures too large, " +
      "can make a run that long)",
  );
}

/** A binary heap of [time, seq, action, index], least (time, seq) first. */
class Queue {
  #items = [];

  get length() {
    return this.#items.length;
  }

  static #less(a, b) {
    return a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);
  }

  push(item) {
    const items = this.#items;
    items.push(item);
    let at = items.length - 1;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!Queue.#less(items[at], items[parent])) break;
      [items[at], items[parent]] = [items[parent], items[at]];
      at = parent;
    }
  }

  pop() {
    const items = this.#items;
    const top = items[0];
    const last = items.pop();
    if (items.length) {
      items[0] = last;
      let at = 0;
      for (;;) {
        const left = 2 * at + 1;
        const right = left + 1;
        let least = at;
        if (left < items.length && Queue.#less(items[left], items[least])) least = left;
        if (right < items.length && Queue.#less(items[right], items[least])) least = right;
        if (least === at) break;
        [items[at], items[least]] = [items[least], items[at]];
        at = least;
      }
    }
    return top;
  }
}

/**
 * Run `courses` (onsets are rolled first, in course order); answer
 * {events, dealt, marked, conditions, state}. `track` is a fresh staged track
 * or null; `state` the subject's state (its transitions are methods answering
 * the new level) or null.
 */
export function runProcess(spec, courses, leaveAt, bonus, track, make, rng, state = null) {
  const run = new Run(spec, courses, bonus, track, make, rng);
  run.state = state;
  if (leaveAt !== null && spec.leaveEvent !== null) run.push(leaveAt, LEAVE, -1);
  courses.forEach((course, index) => {
    const onset = course.onset;
    if (onset === null) {
      run.push(course.start, CHECK, index);
    } else {
      const ticks = exact(onset.roll(rng) * spec.ticks[onset.unit ?? ""]);
      run.push(exact(course.start + ticks), ONSET, index);
    }
  });
  if (spec.enterEvent !== null) run.emit(0, spec.enterEvent, []);
  while (run.queue.length) {
    const [time, , action, index] = run.queue.pop();
    if (action === LEAVE) run.emit(time, spec.leaveEvent ?? "", []);
    else if (action === ONSET) run.onset(time, index);
    else if (action === CHECK) run.check(time, index);
    else run.deal(time, index);
  }
  if (spec.recoverScore !== null) run.recover(Math.max(leaveAt ?? 0, run.lastDealt));
  return {
    events: Object.freeze(run.events),
    dealt: Object.freeze(run.dealt),
    marked: run.marked,
    conditions: Object.freeze(run.conditions),
    state,
  };
}

class Run {
  constructor(spec, courses, bonus, track, make, rng) {
    this.spec = spec;
    this.courses = courses;
    this.bonus = bonus;
    this.track = track;
    this.make = make;
    this.rng = rng;
    this.queue = new Queue();
    this.seq = 0;
    this.events = [];
    this.dealt = spec.scoreEvents.map(() => 0);
    this.pools = new Map();
    this.streak = new Map();
    this.checks = new Map();
    this.marked = 0;
    this.lastDealt = 0;
    this.conditions = [];
    this.state = null;
    this.blank = new Array(spec.outcomeCount + (spec.stateEvent !== null ? 1 : 0)).fill(null);
    this.noLabels = new Array(spec.labelCount).fill(null);
    this.afterAmount = [null, null, null, null, null, ...this.blank];
  }

  push(time, action, index) {
    this.queue.push([time, this.seq, action, index]);
    this.seq += 1;
  }

  emit(time, kind, labels, amount = null, roll = null, total = null, target = null, success = null, pool = null, outcome = null) {
    if (!labels.length) labels = this.noLabels;
    if (this.events.length >= MAX_ENTRIES) throw tooManyEvents();
    this.events.push(
      this.make([time, kind, ...labels, amount, roll, total, target, success, pool, ...(outcome ?? this.blank)]),
    );
  }

  onset(time, index) {
    const course = this.courses[index];
    const pool = course.pool === null ? null : course.pool.roll(this.rng);
    this.emit(time, this.spec.onsetEvent, course.labels, null, null, null, null, null, pool);
    this.check(time, index, pool);
  }

  check(time, index, pool = null) {
    const { spec } = this;
    const course = this.courses[index];
    if (course.pool !== null && pool === null) pool = course.pool.roll(this.rng);
    const roll = spec.check.roll(this.rng);
    const total = exact(roll + this.bonus);
    let success;
    if (spec.alwaysSucceeds !== null && roll >= spec.alwaysSucceeds) success = true;
    else if (spec.alwaysFails !== null && roll <= spec.alwaysFails) success = false;
    else success = total >= course.target;
    if (success && pool && spec.poolDivide !== null) pool = spec.poolDivide(pool);
    this.emit(time, spec.checkEvent, course.labels, null, roll, total, course.target, success, pool);
    const made = (this.checks.get(index) ?? 0) + 1;
    this.checks.set(index, made);
    if (pool) {
      this.pools.set(index, pool);
      this.push(time, DEAL, index);
    }
    if (!success) {
      for (const [score, dice] of course.onFailure) {
        this.add(time, course.labels, score, dice.roll(this.rng));
      }
      this.lastDealt = Math.max(this.lastDealt, time);
      for (const name of course.steps) {
        const level = this.state[name]();
        this.emit(time, spec.stateEvent ?? "", course.labels, null, null, null, null, null, null, [
          ...this.blank.slice(0, -1),
          level,
        ]);
      }
    }
    const streak = success ? (this.streak.get(index) ?? 0) + 1 : 0;
    this.streak.set(index, streak);
    if (course.until !== null && streak >= course.until) {
      if (spec.endEvent !== null) this.emit(time, spec.endEvent, course.labels);
      return;
    }
    if (course.every !== null && (course.checkLimit === null || made < course.checkLimit)) {
      this.push(exact(time + course.every), CHECK, index);
    }
  }

  deal(time, index) {
    const { spec } = this;
    let left = this.pools.get(index);
    const amount = spec.poolDeal ? Math.min(spec.poolDeal.roll(this.rng), left) : left;
    left -= amount;
    this.pools.set(index, left);
    this.add(time, this.courses[index].labels, spec.poolScore, amount);
    if (left) this.push(exact(time + spec.poolInterval), DEAL, index);
    else this.lastDealt = Math.max(this.lastDealt, time);
  }

  add(time, labels, score, amount) {
    const { spec } = this;
    if (this.events.length >= MAX_ENTRIES) throw tooManyEvents();
    this.events.push(this.make([time, spec.scoreEvents[score], ...labels, amount, ...this.afterAmount]));
    const before = this.dealt[score];
    this.dealt[score] = exact(before + amount);
    if (score === spec.trackScore) {
      const every = spec.trackEvery;
      const times = Math.floor((before + amount) / every) - Math.floor(before / every);
      for (let i = 0; i < times; i++) this.rollTrack(time);
    }
  }

  rollTrack(time) {
    const { spec } = this;
    for (;;) {
      const roll = spec.trackRoll.roll(this.rng);
      // a track's outcome: its effect, stage, condition, reroll and mark
      const [effect, stage, condition, again, marked] = Object.values(
        this.track.apply(roll),
      );
      this.emit(time, spec.trackEvent, [], null, roll, null, null, null, null, [
        effect,
        stage,
        condition,
        again,
        marked,
        ...this.blank.slice(spec.outcomeCount),
      ]);
      if (marked) this.marked += 1;
      if (condition !== null) this.conditions.push(condition);
      if (!again) return;
    }
  }

  recover(ready) {
    const { spec } = this;
    let left = this.dealt[spec.recoverScore] - this.marked;
    let time = ready;
    const most = spec.recoverAmount;
    if (left > 0 && this.events.length + Math.ceil(left / most) > MAX_ENTRIES) {
      throw tooManyEvents();
    }
    while (left > 0) {
      time = exact(time + spec.recoverInterval);
      const amount = most < left ? most : left;
      left -= amount;
      this.events.push(this.make([time, spec.recoverEvent, ...this.noLabels, amount, ...this.afterAmount]));
    }
  }
}
