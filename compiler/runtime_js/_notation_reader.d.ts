/** Notation reader: the text of a dice expression and the place reading has got to. */

import type { DiceSyntaxError } from "./dice.js";

export declare const SPACES: string;
/** What may follow an atom (a pool's or a group's options end there). */
export declare const FOLLOWERS: string;
/** The definition's words for `key`, each `{name}` in them filled in. */
export declare function words(key: string, values?: readonly (readonly [string, unknown])[]): string;
/** Whether `ch` is one ASCII digit. */
export declare function isDigit(ch: string | undefined): boolean;

/** The text (as code points) and the place reading has got to. */
export declare class Reader {
  constructor(text: string, bareD6: boolean);
  readonly text: string;
  readonly chars: readonly string[];
  at: number;
  readonly bareD6: boolean;
  hint: string;
  /** The parentheses, groups, calls and minus signs open here. */
  depth: number;
  /** One more level of nesting (refused past MAX_NESTING). */
  deeper(): void;
  readonly length: number;
  peek(length?: number): string;
  ahead(ahead: number): string | undefined;
  slice(start: number, end?: number): string;
  skip(): void;
  fail(message: string, offset: number, hint?: string | null): DiceSyntaxError;
  unexpected(offset?: number | null): DiceSyntaxError;
  stray(): DiceSyntaxError;
  digits(): string;
  number(): number | null;
  needed(what: string): number;
  signed(what: string): number;
}
