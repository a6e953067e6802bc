"""Messages: the one table of what every runtime says when it refuses an argument.

The Python runtime reads it here; the build writes it into the JavaScript
runtime's ``_messages.js`` (and a target of the tests' reads it too), so a
refusal says the same in every language. Each message names its values in
braces: ``{name}`` the argument's, ``{value}`` what was given (as the
runtime shows it), ``{true}``, ``{false}`` the language's flags.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

MESSAGES: Mapping[str, str] = MappingProxyType(
    {
        "not_int": "{name} must be an int, not {value}",
        "outside": "{name} must be in {low}..{high}, not {value}",
        "outside_because": "{name} must be in {low}..{high}, not {value}: {note}",
        "not_one_of": "{name} must be one of {values}, not {value}",
        "not_flag": "{name} must be {true} or {false}, not {value}",
        "not_label": "{name} must be one of {labels}, not {value}",
        "not_mapping": "{name} must be a mapping of {keys} to {values}, not {value}",
        "unread_mapping": (
            "{name} must be a mapping of {keys} to {values}: reading its items raised"
            " {error}"
        ),
        "no_value_for": "{name} has no value for {missing}",
        "two_keys": "{name} has two keys for {label}: {first} and {second}",
    }
)


def say(key: str, /, **values: object) -> str:
    """The message ``key`` with its ``values`` put in."""
    return MESSAGES[key].format(**values)
