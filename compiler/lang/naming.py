"""Naming: which Python names the rules may use, and names derived from them."""

from __future__ import annotations

import builtins
import keyword
import re
import unicodedata

_SNAKE = re.compile(r"[a-z][a-z0-9_]*")


DICE_LIKE = re.compile(r"d[0-9]")
"""How a name that an expression would read as dice notation starts."""


def name_problem(name: str) -> str | None:
    """Why the rules cannot give ``name`` (a function, class, parameter, field...),
    or None if they can: a name Python or JavaScript has already is no problem
    (the generated code spells it otherwise: ``py_names``, ``js_naming``)."""
    if not name.isascii() or not name.isidentifier():
        return f"{name!r} is not an ASCII Python identifier"
    if name.startswith("_"):
        return f"{name!r} starts with an underscore"
    if DICE_LIKE.match(name):
        return f"{name!r} reads as dice notation in an expression ({name[:2]}...)"
    return None


def module_problem(name: str) -> str | None:
    """Why ``name`` cannot name a system's module (``rulebook.<name>``: a
    Python keyword or built-in name cannot), or None if it can."""
    if not name.isascii() or not name.isidentifier():
        return f"{name!r} is not an ASCII Python identifier"
    if keyword.iskeyword(name) or keyword.issoftkeyword(name):
        return f"{name!r} is a Python keyword"
    if name in dir(builtins):
        return f"{name!r} is a Python built-in name"
    if name.startswith("_"):
        return f"{name!r} starts with an underscore"
    return None


def fold(label: str) -> str:
    """The form under which two labels count as the same (case and Unicode folded)."""
    return unicodedata.normalize("NFKC", label).casefold()


def private_constant(*parts: str) -> str:
    """A module-private constant name, e.g. ``_COVER_ROWS`` from ("cover", "rows")."""
    return "_" + "_".join(_upper_snake(p) for p in parts)


def odds_function(function: str) -> str:
    """The name of a rolling rule's odds function (``attack`` -> ``attack_odds``)."""
    return f"{function}_odds"


def label_alias(enum: str) -> str:
    """The name of the type alias of an enum's labels, e.g. ``CoverLevelLabel``."""
    return f"{enum}Label"


def _upper_snake(name: str) -> str:
    if _SNAKE.fullmatch(name):
        return name.upper()
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", name).upper()


def anchor(text: str) -> str:
    """A stable Markdown heading anchor for a rule id."""
    return re.sub(r"[^a-z0-9_-]+", "-", text.lower()).strip("-")


# Where a CamelCase name's next word starts: a capital after a small letter or digit.
_NEXT_WORD = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def class_words(name: str) -> str:
    """A type's name as a reader says it: ``StatPool`` is "stat pool" (a word
    all in capitals, ``HP``, kept)."""
    return " ".join(
        word if word.isupper() else word.lower() for word in _NEXT_WORD.split(name)
    )


def words_of(name: str) -> str:
    """An identifier as a reader says it: ``climb_bonus`` is "climb bonus"."""
    return " ".join(part for part in name.split("_") if part) or name


def title_words(name: str) -> str:
    """An identifier with no title, as a title: its words, the first a capital
    (``smart_munitions`` is "Smart munitions")."""
    words = words_of(name)
    return words[:1].upper() + words[1:]
