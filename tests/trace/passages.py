"""Split a source document into passages, deterministically, for the traceability matrix.

A passage is the smallest piece of a source document the matrix
(``tests/trace/<system>.yaml``) accounts for: a heading, a table row, or a
sentence (of a paragraph or a bullet item). Each passage has its line range
(first and last line, 1-based) and a digest, so the matrix names passages without
quoting them.

The rules of splitting, in order:

1. **Blocks.** Lines separated by blank lines (empty or whitespace only) form
   blocks; no passage crosses a blank line.
2. **Units.** Inside a block, these lines start a new unit, and each of them ends
   the unit before it:

   - a *table row*: a line with a tab between its words, or starting or ending
     with ``|``; a row is one unit by itself, and one passage;
   - a *bullet item*: a line starting with a bullet (``•``, ``◦``, ``▪``, or a
     hyphen, an en or em dash or ``*`` followed by a space) or a footnote marker
     (one or more ``*`` followed by a non-space); the item runs on over the
     following lines until the next unit starts;
   - a *heading*: a short line (at most 8 words and 60 characters) that starts
     with a capital letter or a digit, does not end with punctuation
     (``. , ; : ! ? -`` and the like), follows nothing, a heading, a row, or a
     line that ends a sentence (or a clause, with ``:``), and is not followed by
     a line starting with a lowercase letter; a heading is one unit by itself,
     and one passage.

   Every other line continues the unit before it (or starts a paragraph at the
   top of a block, or after a heading or row).
3. **Sentences.** Paragraphs and bullet items are split into sentences: after
   ``.``, ``!`` or ``?`` (with any closing quotes or brackets, and reference
   marks such as ``[1]``, right after it), followed by whitespace (a space or a
   line break) and then a capital letter, a digit, a bullet character, or an
   opening quote or bracket before a capital or digit. No split after a common
   abbreviation (``e.g.``, ``i.e.``, ``p.``, ``pp.``, ``cf.``, ``vs.``, ``viz.``,
   ``no.``, ``fig.``, ``ch.``, ``mr.``, ``dr.``, ``st.``, case-insensitive). The
   last sentence of a unit runs to its end, punctuated or not.
4. **Text and digest.** A passage's text is its characters from the source, with
   every end-of-line hyphen joined (a letter, ``-``, a line break, a lowercase
   letter: ``pro-`` then ``tects`` is ``protects``; this also joins a compound
   word broken at its own hyphen, which is harmless, as the text only feeds the
   digest) and every run of whitespace collapsed to one space, trimmed. The
   digest is the first 12 hex digits of the SHA-256 of that text in UTF-8. The
   line range is the first and last line the passage touches.

Any change to a passage's wording changes its digest; a passage moved by
added or removed lines keeps its digest but changes its line range.

Run ``python -m tests.trace.passages FILE`` to print every passage of FILE as a
matrix entry skeleton (``- {lines: "A-B", digest: "..."}``), ready to be classified.
"""

from __future__ import annotations

import hashlib
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Passage", "digest", "normalize", "passages", "split_text"]

_BULLET = re.compile(r"^\s*(?:[•◦▪]\s*|[-–—*]\s+|\*+(?=\S))")
_HEADING_WORDS = 8
_HEADING_CHARS = 60
_TRAILING_PUNCT = ".,;:!?-–—+=/&*"
_CLOSERS = "\"'”’)]»"
_OPENERS = "\"'“‘([«"
_ABBREVIATIONS = frozenset(
    {"e.g.", "i.e.", "p.", "pp.", "cf.", "vs.", "viz.", "no.", "fig.", "ch.", "mr."}
    | {"dr.", "st."}
)
# A sentence end: terminal punctuation, closers, whitespace, then what starts a sentence.
_SENTENCE_END = re.compile(
    r"[.!?]["
    + re.escape(_CLOSERS)
    + r"]*(?:\[\d+\])*(?=\s+(?:[A-Z0-9•◦▪*\-–—]|["
    + re.escape(_OPENERS)
    + r"][A-Z0-9]))"
)
_NOTE_MARK = re.compile(r"(?:\[\d+\])+$")  # reference marks such as "[1]"
_HYPHEN_BREAK = re.compile(r"(?<=[^\W\d_])-[ \t]*\n[ \t]*(?=[a-z])")


@dataclass(frozen=True, slots=True)
class Passage:
    """One passage: its first and last line (1-based), its text and its digest."""

    first: int
    last: int
    text: str
    digest: str

    @property
    def lines(self) -> str:
        """The line range as the matrix writes it: "12-14" (or "12-12")."""
        return f"{self.first}-{self.last}"


def normalize(raw: str) -> str:
    """A passage's text: end-of-line hyphens joined, whitespace collapsed."""
    return " ".join(_HYPHEN_BREAK.sub("", raw).split())


def digest(text: str) -> str:
    """The first 12 hex digits of the SHA-256 of the normalized text."""
    return hashlib.sha256(normalize(text).encode("utf-8")).hexdigest()[:12]


def _is_row(line: str) -> bool:
    stripped = line.strip()
    return "\t" in stripped or stripped.startswith("|") or stripped.endswith("|")


def _ends_sentence(line: str) -> bool:
    text = _NOTE_MARK.sub("", line.rstrip()).rstrip(_CLOSERS)
    return text.endswith((".", "!", "?", ":"))


def _is_heading(line: str, before: str | None, after: str | None) -> bool:
    text = line.strip()
    return (
        bool(text)
        and (text[0].isupper() or text[0].isdigit())
        and len(text) <= _HEADING_CHARS
        and len(text.split()) <= _HEADING_WORDS
        and text[-1] not in _TRAILING_PUNCT
        and (before is None or _ends_sentence(before))
        and not (after is not None and after.lstrip()[:1].islower())
    )


def _units(lines: list[str]) -> Iterator[tuple[str, list[int]]]:
    """(kind, line numbers) of each unit: "row", "heading" or "prose"; 0-based."""
    current: list[int] = []
    previous: str | None = None  # the line before, within the block
    previous_whole = False  # whether it was a row or heading
    for index, line in enumerate(lines):
        if not line.strip():
            if current:
                yield "prose", current
            current, previous, previous_whole = [], None, False
            continue
        following = lines[index + 1] if index + 1 < len(lines) else None
        if following is not None and not following.strip():
            following = None
        whole: str | None = None
        if _is_row(line):
            whole = "row"
        elif _is_heading(line, None if previous_whole else previous, following):
            whole = "heading"
        if whole is not None:
            if current:
                yield "prose", current
            yield whole, [index]
            current = []
        elif _BULLET.match(line) or previous_whole:
            if current:
                yield "prose", current
            current = [index]
        else:
            current.append(index)
        previous, previous_whole = line, whole is not None
    if current:
        yield "prose", current


def _sentences(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) offsets of each sentence of a unit's text."""
    start = 0
    for match in _SENTENCE_END.finditer(text):
        end = match.end()
        word = (
            _NOTE_MARK.sub("", text[:end])
            .rstrip(_CLOSERS)
            .split()[-1]
            .lstrip(_OPENERS)
            .lower()
        )
        if word in _ABBREVIATIONS:
            continue
        yield start, end
        start = end
    if text[start:].strip():
        yield start, len(text)


def split_text(source: str) -> list[Passage]:
    """Every passage of a document's text, in order."""
    lines = source.splitlines()
    found: list[Passage] = []
    for kind, numbers in _units(lines):
        block = "\n".join(lines[n] for n in numbers)
        spans = [(0, len(block))] if kind != "prose" else list(_sentences(block))
        for start, end in spans:
            raw = block[start:end]
            lead = len(raw) - len(raw.lstrip())
            tail = len(raw.rstrip())
            first = numbers[block.count("\n", 0, start + lead)]
            last = numbers[block.count("\n", 0, start + max(tail - 1, lead))]
            text = normalize(raw)
            if text:
                found.append(Passage(first + 1, last + 1, text, digest(text)))
    return found


def passages(path: Path) -> list[Passage]:
    """Every passage of the document at ``path`` (UTF-8), in order."""
    return split_text(path.read_text(encoding="utf-8"))


def main(argv: list[str]) -> int:
    """Print each passage of each FILE as a matrix entry skeleton."""
    if not argv:
        print("usage: python -m tests.trace.passages FILE...", file=sys.stderr)
        return 2
    for name in argv:
        print(f"# {name}")
        for p in passages(Path(name)):
            print(f'- {{lines: "{p.lines}", digest: "{p.digest}"}}')
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
