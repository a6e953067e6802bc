/** Timelines: handlers run at the times they were scheduled for, earliest first. */

/** The handlers still to run, by time, and the events recorded so far. */
export declare class Timeline<Event = unknown> {
  /** Run `handler(time, ...args)` at `time`, after those already scheduled for it. */
  at<Args extends unknown[]>(
    time: number,
    handler: (time: number, ...args: Args) => void,
    ...args: Args
  ): void;
  /** Run every handler scheduled, and every one they schedule, in order. */
  run(): void;
  /** Record `event`, refusing a run past the runtime's entry limit. */
  push(event: Event): void;
  /** The events recorded, in order (a frozen copy). */
  readonly events: readonly Event[];
}
