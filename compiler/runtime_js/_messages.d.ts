/** Each message by its key (the runtime's one table of refusals). */
export declare const MESSAGES: Readonly<Record<string, string>>;

/** The message `key` with its `values` (by name) put in. */
export declare function say(key: string, values: Readonly<Record<string, unknown>>): string;
