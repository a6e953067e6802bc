/** `text` case-folded as CPython's str.casefold folds it. */
export declare function fold(text: string): string;
