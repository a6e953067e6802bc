"""The README and the guides (docsite/guides/*.md) read as tests: their code blocks,
the rulesc commands they run or show, their links and the commands they name."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
GUIDES = ROOT / "docsite" / "guides"
DOCUMENTS = [README, *sorted(GUIDES.glob("*.md"))]

_FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.M | re.S)
# [text](target): a Markdown link, its target without a title.
_LINK = re.compile(r"\[[^\]]*\]\(([^()\s]+)\)")
_CODE_SPAN = re.compile(r"`([^`]+)`")
# A piece of code that is a command: `rulesc CMD --opt ...`, `make TARGET`.
_RULESC = re.compile(r"^(?:\$ )?(?:\.venv/bin/)?rulesc ([a-z][a-z-]*)(.*)")
_MAKE = re.compile(r"^(?:\$ )?make ([a-z][a-z-]*)")


@dataclass(frozen=True)
class Block:
    """A fenced code block: its document, language, text and first line's number."""

    doc: Path
    lang: str
    body: str
    line: int

    @property
    def where(self) -> str:
        return f"{self.doc.relative_to(ROOT).as_posix()}:{self.line}"


def blocks(doc: Path) -> list[Block]:
    text = doc.read_text(encoding="utf-8")
    return [
        Block(doc, m.group(1), m.group(2), text[: m.start()].count("\n") + 1)
        for m in _FENCE.finditer(text)
    ]


ALL_BLOCKS = [block for doc in DOCUMENTS for block in blocks(doc)]


def sh_commands() -> list[tuple[str, list[str]]]:
    """The rulesc lines of the sh blocks (make is what CI itself runs), by place."""
    found = []
    for block in ALL_BLOCKS:
        if block.lang != "sh":
            continue
        for offset, text in enumerate(block.body.splitlines()):
            words = text.split("#")[0].split()
            if words and words[0].endswith("bin/rulesc"):
                where = f"{block.doc.relative_to(ROOT).as_posix()}:{block.line + 1 + offset}"
                found.append((where, words[1:]))
    return found


def shown_runs() -> list[tuple[str, list[str], list[str]]]:
    """``$ rulesc ...`` lines of the output blocks, with the output shown after them.

    Blocks that show errors are about rules with a mistake in them; they are left
    to the error tests (tests/test_error_output.py)."""
    found = []
    for block in ALL_BLOCKS:
        if block.lang or "error:" in block.body or "$ rulesc" not in block.body:
            continue
        current: tuple[str, list[str], list[str]] | None = None
        for offset, text in enumerate(block.body.splitlines()):
            if text.startswith("$ rulesc "):
                where = f"{block.doc.relative_to(ROOT).as_posix()}:{block.line + 1 + offset}"
                current = (where, text[2:].split("#")[0].split()[1:], [])
                found.append(current)
            elif current is not None:
                current[2].append(text)
    return found


def prose(doc: Path) -> str:
    """The document without its code blocks and code spans."""
    text = _FENCE.sub("", doc.read_text(encoding="utf-8"))
    return _CODE_SPAN.sub("", text)


def links(doc: Path) -> list[str]:
    """The targets of the document's links, but those to other sites."""
    return [
        target
        for target in _LINK.findall(prose(doc))
        if not re.match(r"[a-z]+:", target)
    ]


def code(doc: Path) -> list[str]:
    """The document's code: each code span and each line of its code blocks,
    whitespace made single spaces."""
    text = doc.read_text(encoding="utf-8")
    found = [line for m in _FENCE.finditer(text) for line in m.group(2).splitlines()]
    found += _CODE_SPAN.findall(_FENCE.sub("", text))
    return [" ".join(piece.split()) for piece in found]


def rulesc_named(doc: Path) -> list[tuple[str, list[str]]]:
    """Each ``rulesc COMMAND`` the document's code names, with its ``--options``
    written in lower case (``--INPUT`` stands for a rule's own)."""
    found = []
    for piece in code(doc):
        if piece.startswith("$ rulesc simulate"):
            continue  # a rule's own options: the run itself checks them
        if m := _RULESC.match(piece):
            options = re.findall(r"(?<![\w-])--[a-z][a-z-]*", m.group(2).split("#")[0])
            found.append((m.group(1), options))
    return found


def make_named(doc: Path) -> list[str]:
    return [m.group(1) for piece in code(doc) if (m := _MAKE.match(piece))]


def make_targets() -> set[str]:
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    return set(re.findall(r"^([a-z][a-z-]*):", text, re.M))


def slug(heading: str) -> str:
    """A heading's id, as Python-Markdown's toc (MkDocs) and, for these headings,
    GitHub make it."""
    text = unicodedata.normalize("NFKD", heading.replace("`", ""))
    text = re.sub(r"[^\w\s-]", "", text.encode("ascii", "ignore").decode()).strip()
    return re.sub(r"[-\s]+", "-", text.lower())


def headings(doc: Path) -> set[str]:
    """The ids of a Markdown file's headings."""
    text = _FENCE.sub("", doc.read_text(encoding="utf-8"))
    return {slug(m.group(1)) for m in re.finditer(r"^#{1,6} (.+)$", text, re.M)}
