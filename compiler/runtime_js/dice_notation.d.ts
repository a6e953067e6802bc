/** Dice notation: the text of the common games' dice read into a `DiceSum`, with located errors. */

import type { DiceSum } from "./dice_terms.js";

/** The most terms one expression adds up. */
export declare const MAX_TERMS: number;

export interface NotationOptions {
  /** GURPS's `3d` for `3d6`. */
  bareD6?: boolean;
}

/** Read `text` into a `DiceSum`; `DiceSyntaxError` (offset, message, hint) where it goes wrong. */
export declare function parseNotation(text: string, options?: NotationOptions): DiceSum;
