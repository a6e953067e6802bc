/**
 * Timelines: handlers run at the times they were scheduled for, earliest
 * first (the JavaScript twin of the Python runtime's _timeline.py).
 *
 * A generated timeline schedules its handlers (`at`), runs them in time order
 * (`run`: of those scheduled for one time, the first scheduled runs first),
 * and records what happens (`push`). It records at most MAX_ENTRIES events (a
 * limit of the runtime, not of the rules): past it, it throws RuleInputError,
 * so a run that would never end stops there.
 */

import { MAX_ENTRIES, tooMany } from "./_support.js";

/** The handlers still to run, by time (a binary heap, least (time, seq) first),
 * and the events recorded so far. */
export class Timeline {
  #items = [];
  #seq = 0;
  #events = [];

  /** Run `handler(time, ...args)` at `time`, after those already scheduled for it. */
  at(time, handler, ...args) {
    const items = this.#items;
    items.push([time, this.#seq, handler, args]);
    this.#seq += 1;
    let at = items.length - 1;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!Timeline.#less(items[at], items[parent])) break;
      [items[at], items[parent]] = [items[parent], items[at]];
      at = parent;
    }
  }

  /** Run every handler scheduled, and every one they schedule, in order. */
  run() {
    while (this.#items.length > 0) {
      const [time, , handler, args] = this.#pop();
      handler(time, ...args);
    }
  }

  /** Record `event`, refusing a run past the runtime's entry limit. */
  push(event) {
    if (this.#events.length >= MAX_ENTRIES) {
      throw tooMany(
        "events (an rng that keeps rolling the same, or figures too large, " +
          "can make a run that long)",
      );
    }
    this.#events.push(event);
  }

  /** The events recorded, in order (a frozen copy). */
  get events() {
    return Object.freeze([...this.#events]);
  }

  static #less(a, b) {
    return a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);
  }

  #pop() {
    const items = this.#items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0) {
      items[0] = last;
      let at = 0;
      for (;;) {
        const left = 2 * at + 1;
        const right = left + 1;
        let least = at;
        if (left < items.length && Timeline.#less(items[left], items[least])) least = left;
        if (right < items.length && Timeline.#less(items[right], items[least])) least = right;
        if (least === at) break;
        [items[at], items[least]] = [items[least], items[at]];
        at = least;
      }
    }
    return top;
  }
}
