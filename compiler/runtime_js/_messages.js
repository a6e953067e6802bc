/**
 * Messages: what the runtime says when it refuses an argument. The table is
 * every runtime's one (compiler/runtime/_messages.py): the build writes it
 * in below, so a refusal says the same in Python and in JavaScript.
 */

/** Each message by its key; `say` puts in the values it names in braces. */
export const MESSAGES = Object.freeze({});

/** The message `key` with its `values` (by name) put in. */
export function say(key, values) {
  return MESSAGES[key].replace(/\{(\w+)\}/g, (_, part) => String(values[part]));
}
