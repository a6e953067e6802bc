/** Notation pools: a pool's sides and options, and a group's options, read from the definition's table. */

import type { Reader } from "./_notation_reader.js";
import type { Pool } from "./dice_terms.js";
import type { Group, Node } from "./dice_tree.js";

/** The pool whose `d` `reader` has just read (`count` dice, its text from `start`). */
export declare function readPool(reader: Reader, count: number, start: number): Pool;
/** The group of `items` whose `}` `reader` has just read, with its options. */
export declare function groupOptions(reader: Reader, items: readonly Node[], start: number): Group;
/** Whether a comparison starts here. */
export declare function startsCompare(reader: Reader): boolean;
