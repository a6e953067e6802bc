"""Visible: characters that would act on text or hide in it, written as escapes.

One rule for every place text from the rules reaches that is not a string
literal: error output, the comments and docstrings of the Python, JavaScript
and TypeScript modules, the Markdown pages (and the site made of them), their
math text and the charts. Every character ``str.isprintable`` refuses is written
as an escape Python reads as that character: C0 and C1 controls, DEL, the
bidirectional controls (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C),
zero-width and other format characters (U+200B-U+200D, U+2060, U+FEFF, U+00AD),
line and paragraph separators (U+2028, U+2029), private-use and unassigned code
points. ``\\x1b`` below U+0100, ``\\u202e`` below U+10000, ``\\U000e0001``
past it: what a reader sees is what the .py module's literal holds.
"""

from __future__ import annotations

import re

# Runs of white space a line of text folds into one space: spaces, tabs, line
# feeds, carriage returns and the other space separators (Unicode's Zs, such as
# U+00A0). The other characters ``str.split`` takes for white space (U+000B,
# U+000C, U+001C-U+001F, U+0085, U+2028, U+2029) are controls or separators,
# kept and escaped.
SPACES = " \t\n\r\u00a0\u1680\u202f\u205f\u3000" + "".join(
    map(chr, range(0x2000, 0x200B))
)
_SPACES = re.compile(f"[{SPACES}]+")


def escape(ch: str) -> str:
    """One character as Python's escape of it."""
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def utf16_escape(ch: str) -> str:
    """One character as ``\\uXXXX`` (a UTF-16 pair past U+FFFF): what JSON and
    JavaScript read back as the character."""
    code = ord(ch)
    if code < 0x10000:
        return f"\\u{code:04x}"
    high, low = divmod(code - 0x10000, 0x400)
    return f"\\u{0xD800 + high:04x}\\u{0xDC00 + low:04x}"


def json_visible(text: str) -> str:
    """JSON text (``json.dumps`` with ``ensure_ascii=False``) with every character
    ``str.isprintable`` refuses written as its ``\\u`` escape: the same JSON
    value, no such character raw in the file."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else utf16_escape(ch) for ch in text)


def visible(text: str, keep: str = "") -> str:
    """``text`` with every character ``str.isprintable`` refuses, but those in
    ``keep``, written as its escape."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() or ch in keep else escape(ch) for ch in text)


def fold(text: str) -> str:
    """``text`` on one line: each run of white space one space, none around it."""
    return _SPACES.sub(" ", text).strip(" ")


def one_line(text: str) -> str:
    """``text`` folded onto one line, every character left that hides or acts
    written as its escape."""
    return visible(fold(text))
