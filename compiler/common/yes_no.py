"""Yes and no: the hint for yes/no/on/off written where a boolean is wanted (YAML 1.2 reads them as text)."""

from __future__ import annotations

import re

# Words YAML 1.1 read as booleans; in YAML 1.2 (and so in rules files) they are text.
YAML11_BOOLEANS = frozenset(
    form(word)
    for word in ("y", "yes", "n", "no", "on", "off")
    for form in (str.lower, str.upper, str.capitalize)
)
# A word that is no name in a formula either (y and n may well be parameters').
_NEVER_NAMES = YAML11_BOOLEANS - {"y", "Y", "n", "N"}
_QUOTED_WORD = re.compile(r"'([A-Za-z]{1,3})'")
# Messages that say a boolean was wanted: a bool column, parameter or slot, the
# runtime's refusal of an argument, the schema's type error.
_WANTS_BOOL = re.compile(r"\bbool(?:ean)?\b|True or False|true or false")
_UNKNOWN_NAME = re.compile(r"unknown name '([A-Za-z]{1,3})'")


def hint_for(word: str) -> str:
    """The hint for ``word`` where a boolean is wanted."""
    return f"write true or false; {word!r} is text in YAML 1.2"


def bool_hint(message: str, hint: str | None) -> str | None:
    """The hint an error should give: ``hint_for`` the word when ``message``
    quotes yes, no, on or off where a boolean is wanted (or as an unknown name
    in a formula), else ``hint`` as it was."""
    if hint is not None and "true or false" in hint:
        return hint
    named = _UNKNOWN_NAME.search(message)
    if named is not None and named.group(1) in _NEVER_NAMES:
        return hint_for(named.group(1))
    if _WANTS_BOOL.search(message) is None:
        return hint
    for word in _QUOTED_WORD.findall(message):
        if word in YAML11_BOOLEANS:
            return hint_for(word)
    return hint
