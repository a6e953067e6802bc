// The runtime's case folding against CPython's str.casefold, for every code
// point: the file RULEBOOK_JS_CASES names lists (code point, casefold) where
// Python's casefold changes the character; every other one folds to itself.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { pathToFileURL } from "node:url";

const spec = JSON.parse(readFileSync(process.env.RULEBOOK_JS_CASES, "utf8"));
const pkg = pathToFileURL(spec.package + "/").href;
const { fold } = await import(new URL("_fold.js", pkg).href);

test("fold is str.casefold for every code point", () => {
  const changed = new Map(spec.changed);
  const wrong = [];
  for (let cp = 0; cp < 0x110000; cp++) {
    if (cp >= 0xd800 && cp < 0xe000) continue;
    const ch = String.fromCodePoint(cp);
    const want = changed.get(cp) ?? ch;
    if (fold(ch) !== want) wrong.push(cp.toString(16));
  }
  assert.deepEqual(wrong, []);
});

test("a word folds as its characters do", () => {
  assert.equal(fold("STRASSE"), fold("Straße"));
  assert.equal(fold("ΟΔΟΣ"), "οδοσ");
  assert.equal(fold("Half"), "half");
});
