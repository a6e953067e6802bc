"""Roll words: a dice notation the runtime refused, said as one whole sentence that names it."""

from __future__ import annotations

from ..common.diagnostics import MAX_QUOTED
from ..common.visible import visible
from ..runtime._support import shown as runtime_shown

_ENDS = "it ends too soon"
_UNEXPECTED = "unexpected "
# After these, a term must follow: a die, a number, a call or a bracket.
_OPENERS = frozenset("+-*/(,[{<>=")


def sentence(text: str, message: str, offset: int) -> str:
    """``3d6+: the notation ends too soon after '+'; a die or number must
    follow.``: the runtime's located ``message`` about ``text`` (the mistake
    at ``offset``), as a sentence that starts with the notation."""
    said = _own_words(text, message)
    before = text[:offset].rstrip()
    if said == _ENDS and offset >= len(text.rstrip()):
        if not before:
            return "the dice notation is empty: write the dice to roll (e.g. 3d6)."
        last = before[-1]
        follows = "a die or number" if last in _OPENERS else "more"
        return (
            f"{_named(text)}: the notation ends too soon after {_last(before)}; "
            f"{follows} must follow."
        )
    if said.startswith(_UNEXPECTED) and offset < len(text):
        found = _char(text[offset])
        if not before:
            return (
                f"{_named(text)}: {found} cannot start a dice expression, "
                f"at character {offset + 1}."
            )
        return (
            f"{_named(text)}: {found} cannot come after {_named(before)!r}, "
            f"at character {offset + 1}."
        )
    end = "" if said.endswith((".", "?", "!")) else "."
    return f"{_named(text)}: {said}, at character {offset + 1}{end}"


def _own_words(text: str, message: str) -> str:
    """The runtime's message without its ``bad dice expression '...':`` start."""
    for start in (
        f"bad dice expression {text!r}: ",
        f"bad dice expression {runtime_shown(text)}: ",
        "bad dice expression: ",
    ):
        if message.startswith(start):
            return message[len(start) :]
    return message


def _named(text: str) -> str:
    """The notation as a message shows it: hidden characters escaped, cut when long."""
    if len(text) > MAX_QUOTED:
        return visible(text[:MAX_QUOTED]) + "\N{HORIZONTAL ELLIPSIS}"
    return visible(text)


def _last(before: str) -> str:
    """The last token of ``before``: a comparison (``>=``) whole, else its last character."""
    size = len(before) - len(before.rstrip("<>=!"))
    return _char(before[-size:] if size > 1 else before[-1])


def _char(ch: str) -> str:
    return repr(visible(ch))
