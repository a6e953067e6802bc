"""YAML words: a syntax error of the YAML parser said in a rules editor's words, with what to do.

The parser (ruamel.yaml) reports a ``problem`` (``mapping values are not
allowed here``), often a ``context`` (``while scanning a quoted scalar``) and
two places: where it stopped, and where what it was reading began. Each usual
slip gets a message naming it as a rules editor sees it, a hint saying what to
write instead, and the better of the two places (an unclosed quote is shown at
its opening quote, not at the end of the file). A problem not listed here keeps
the parser's own words, with a general hint: every syntax error is located and
hinted.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

Place = tuple[int, int]  # line and column, from 1

PREFIX = "YAML syntax error: "
GENERAL_HINT = (
    "look at this line and the one before it: keys as 'key: value' (a space "
    "after the colon), indented with spaces as the keys beside them, and every "
    "quote and bracket closed; quote a value holding : # [ ] { } or starting "
    "with a sign YAML reserves"
)


@dataclass(frozen=True)
class Found:
    """What the parser said, and where."""

    problem: str
    context: str
    at: Place  # where the parser stopped
    began: Place | None  # where what it was reading began (its context)
    line_text: str  # the text of the line at ``at``


def said(found: Found) -> tuple[Place, str, str]:
    """The place, message and hint for a syntax error the parser reported."""
    for rule in _RULES:
        answer = rule(found)
        if answer is not None:
            place, message, hint = answer
            return place, PREFIX + message, hint
    message = found.problem + (f" ({found.context})" if found.context else "")
    return found.at, PREFIX + message, GENERAL_HINT


Answer = tuple[Place, str, str] | None


_TAB = re.compile(r"\btabs?\b")


def _tab(found: Found) -> Answer:
    if "'\\t'" not in found.problem and _TAB.search(found.problem) is None:
        return None
    return (
        found.at,
        "a tab character, where YAML allows only spaces",
        "indent with spaces, not tabs (set the editor to insert spaces in .yaml "
        "files); YAML does not allow tabs for indentation",
    )


def _colon_in_value(found: Found) -> Answer:
    if "mapping values are not allowed" not in found.problem:
        return None
    before = found.line_text[: found.at[1] - 1]
    if ": " in before or (before.lstrip().startswith("- ") and ":" in before):
        return (
            found.at,
            "a ': ' inside a value that is not quoted (YAML reads it as a second key)",
            "quote a value that holds ': ', e.g. \"Note: see below\"",
        )
    return (
        found.at,
        "a key indented under a line that already has its value",
        "line the key up with the keys of its mapping; to nest it, leave the "
        "line above without a value ('key:' alone)",
    )


def _missing_colon(found: Found) -> Answer:
    if "could not find expected ':'" not in found.problem:
        return None
    return (
        found.began or found.at,
        "a line that is neither 'key: value' nor a list item: its ':' is missing",
        "write each key as 'key: value', with a space after the colon; or quote "
        "a text that runs on over lines",
    )


def _unclosed_quote(found: Found) -> Answer:
    if "quoted scalar" not in found.context or "end of stream" not in found.problem:
        return None
    return (
        found.began or found.at,
        "a quote that is never closed: the text runs on to the end of the file",
        "close the quote at the end of its text; inside '...' write '' for a "
        'single quote, inside "..." write \\"',
    )


_FLOW = re.compile(r"expected ',' or '([\]}])', but got '(.*)'")


def _unclosed_flow(found: Found) -> Answer:
    match = _FLOW.search(found.problem)
    if match is None:
        return None
    close, got = match.groups()
    what = "[ ] list" if close == "]" else "{ } mapping"
    items, item = ("items", "item") if close == "]" else ("entries", "entry")
    same_line = found.began is not None and found.began[0] == found.at[0]
    if got == "<stream end>" or not same_line:
        return (
            found.began or found.at,
            f"a {what} that is not closed on its line: its '{close}' is missing",
            f"close the {what} with '{close}', with commas between its {items}",
        )
    return (
        found.at,
        f"'{got}' inside a {what}, where a comma or its '{close}' was expected",
        f"put a comma between the {items} of a {what}; quote an {item} that "
        "holds a comma or a colon",
    )


_BLOCK_END = re.compile(r"expected <block end>, but found '(.*)'")


def _out_of_line(found: Found) -> Answer:
    match = _BLOCK_END.search(found.problem) or re.search(
        r"did not find expected (key|'-' indicator)", found.problem
    )
    if match is None:
        return None
    got = match.group(1)
    if got == "<scalar>":
        return (
            found.at,
            "text after a closing quote: a quoted value must end with its quote",
            "put the whole value inside the quotes",
        )
    if got in ("]", "}"):
        return (
            found.at,
            f"a '{got}' that closes no bracket opened before it",
            f"remove the '{got}', or open the list or mapping it closes",
        )
    if got == "?" or "list" in found.context or "collection" in found.context:
        if found.line_text.lstrip().startswith("- "):
            return _indented(found)
        return (
            found.at,
            "a key among the items of a list, where '- ' starts the next item",
            "start a list item with '- ', or indent the key as the keys of the "
            "item above it",
        )
    return _indented(found)


def _indented(found: Found) -> Answer:
    return (
        found.at,
        f"this line is indented to column {found.at[1]}, where no key or item "
        "above it starts",
        "line it up (with spaces) with the keys of its mapping or the '- ' of its list",
    )


def _anchor(found: Found) -> Answer:
    if "anchor" not in found.context and "alias" not in found.context:
        return None
    return (
        found.began or found.at,
        "a value that starts with '&' or '*' (YAML's anchors and aliases, which "
        "rules files do not use)",
        'quote a value that starts with & or *: "*..."',
    )


def _block_header(found: Found) -> Answer:
    if "block scalar" not in found.context:
        return None
    return (
        found.at,
        "text after '|' or '>' on its line: a block of text starts on the next line",
        "move the text to the next line, indented under the key, or quote it "
        "on this line instead",
    )


def _worded(pattern: str, message: str, hint: str) -> Callable[[Found], Answer]:
    """A rule for a problem that ``pattern`` matches: its message and hint
    name the character it caught (``{0}``)."""
    compiled = re.compile(pattern)

    def rule(found: Found) -> Answer:
        match = compiled.search(found.problem)
        if match is None:
            return None
        char = next(g for g in match.groups() if g is not None)
        return found.at, message.format(char), hint.format(char)

    return rule


_RULES = (
    _tab,
    _worded(
        r"unknown escape character '(.*)'",
        "\\{0} is not an escape YAML knows inside double quotes",
        "in double quotes write \\\\ for a backslash, or use single quotes",
    ),
    _unclosed_quote,
    _worded(
        r"found character '(.+)' that cannot start any token"
        r"|expected the node content, but found '(.*)'",
        "a value that starts with '{0}', which YAML reserves",
        'quote a value that starts with this character: "{0}..."',
    ),
    _colon_in_value,
    _missing_colon,
    _unclosed_flow,
    _out_of_line,
    _anchor,
    _block_header,
)
