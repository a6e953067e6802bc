// Runs a JavaScript block of the README or a guide (read from standard input) as an ES
// module in the current folder, checking each line `expression;  // value...`:
// the expression must equal the JavaScript literal the comment starts with.
import { isDeepStrictEqual } from "node:util";
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const source = readFileSync(0, "utf8");

function literal(comment) {
  for (let end = comment.length; end > 0; end--) {
    const text = comment.slice(0, end).trim();
    if (!text) continue;
    try {
      return { found: true, value: new Function(`return (${text});`)() };
    } catch {
      // not a literal yet: try a shorter prefix
    }
  }
  return { found: false };
}

const expected = [];
const lines = source.split("\n").map((line, index) => {
  const at = line.indexOf("  // ");
  if (at < 0) return line;
  const code = line.slice(0, at).trimEnd();
  if (!code.endsWith(";") || /^\s*(import|const|let|var|try)\b/.test(code)) return line;
  const { found, value } = literal(line.slice(at + 5));
  if (!found) return line;
  expected.push(value);
  return `__check(${index + 1}, (${code.slice(0, -1)}), ${expected.length - 1});`;
});

globalThis.__expected = expected;
globalThis.__checked = 0;
globalThis.__check = (line, value, which) => {
  const want = globalThis.__expected[which];
  if (!isDeepStrictEqual(value, want)) {
    throw new Error(`line ${line}: ${String(value)} is not ${String(want)}`);
  }
  globalThis.__checked += 1;
};
const file = `${process.cwd()}/readme-block.mjs`;
writeFileSync(file, lines.join("\n"));
await import(pathToFileURL(file).href);
console.log("ok", globalThis.__checked, expected.length);
