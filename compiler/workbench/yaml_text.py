"""YAML text: values written in flow style as the rules files write them, every character the loader refuses or a terminal hides written as an escape.

``rulesc accept`` writes answers into rules files with these. A text is
written plain where the rules files' own reader reads it back as the same
text, single-quoted where it stood in single quotes, else double-quoted. A
character the loader refuses as itself (``loader.refused``: control
characters, U+0085, U+2028 and U+2029, a lone carriage return...), one a
terminal would not show as itself (``output.terminal_safe``: bidirectional
controls, zero-width and other format characters...), a line break and a tab
are always written as escapes of a double-quoted text: the file loads, reads
back as the same text, and the diff accept prints shows exactly the
characters it writes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..front.loader import refused
from .output import terminal_safe


@dataclass(frozen=True)
class Flow:
    """A value to write in flow style even where the text around it is in block
    style (an answer, as accept writes answers)."""

    value: Any


def hidden(ch: str) -> bool:
    """Whether ``ch`` is written as an escape, never as itself: the loader
    refuses it, a terminal would not show it as itself, or it is a line break
    or tab (which quoted text folds, and a diff shows as its layout)."""
    return ch in "\n\t" or refused(ch) or terminal_safe(ch) != ch


_SHORT = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def quoted(value: str) -> str:
    """``value`` as a YAML double-quoted text: quotes, backslashes and every
    ``hidden`` character escaped, the rest as itself."""
    out = ['"']
    for ch in value:
        if ch in _SHORT:
            out.append(_SHORT[ch])
        elif hidden(ch):
            code = ord(ch)
            out.append(f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}")
        else:
            out.append(ch)
    return "".join(out) + '"'


def flow(value: Any, old_text: str = "") -> str:
    """``value`` written in YAML flow style, as the rules files write it (a
    text in the quoting of ``old_text``, the text it replaces, where it can)."""
    if isinstance(value, Flow):
        value = value.value
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return number(value)
    if isinstance(value, str):
        return string(value, old_text)
    if isinstance(value, Mapping | list | tuple):
        # its texts plain where the whole reads back so (a text plain alone
        # may not be inside brackets: "(" before a comma, ":0"), else quoted
        text = _collection(value, plain=True)
        return text if _reads_back(text, value) else _collection(value, plain=False)
    return string(str(value), old_text)


def _collection(value: Any, plain: bool) -> str:
    """A value in flow style, its texts plain where each reads back alone
    (``plain``) or every one quoted."""
    if isinstance(value, str):
        return string(value) if plain else quoted(value)
    if isinstance(value, Mapping):
        return (
            "{"
            + ", ".join(
                f"{_collection(str(k), plain)}: {_collection(v, plain)}"
                for k, v in value.items()
            )
            + "}"
        )
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_collection(v, plain) for v in value) + "]"
    return flow(value)


def number(value: float) -> str:
    """A float as YAML writes one plain (a number, never a quoted text): the
    shortest text that reads back as it (``0.5``, ``1.0e+20``, ``.inf``)."""
    if value != value:
        return ".nan"
    if value in (float("inf"), float("-inf")):
        return ".inf" if value > 0 else "-.inf"
    text = repr(value)
    if "e" in text and "." not in text.split("e")[0]:  # YAML 1.1 wants the dot
        mantissa, exponent = text.split("e")
        text = f"{mantissa}.0e{exponent}"
    return text


def string(value: str, old_text: str = "") -> str:
    """A text: double-quoted when it holds a ``hidden`` character, else in the
    quoting of ``old_text`` (plain where it reads back as itself)."""
    if any(hidden(ch) for ch in value):
        return quoted(value)
    quote = old_text[:1]
    if quote == "'":
        return "'" + value.replace("'", "''") + "'"
    if quote != '"' and _reads_back(value):
        return value
    return quoted(value)


def _reads_back(value: str, meant: Any = None) -> bool:
    """Whether ``value`` written plain is read back as this very text (or as
    ``meant``) by the rules files' own reader: no ': ', no ' #', nothing it
    takes for a number."""
    if meant is None and (
        not value or value != value.strip() or any(c in value for c in "{}[],\n")
    ):
        return False
    from ..common.diagnostics import RulesError
    from ..front.loader import load_text

    try:
        data = load_text(f"v: {value}\n".encode(), "<value>").data
    except RulesError:
        return False
    return bool(data == {"v": value if meant is None else meant})
