"""JSON text as ``json.dumps(doc, indent=2, ensure_ascii=False)`` writes it, faster.

With an indent, the standard library encodes in pure Python, a generator per
list and mapping; the large documents the build writes (rules.json, the composed
schemas, the manifest) are made here instead, by one recursive function that
uses the C string encoder. The text is the same, character for character
(tests/test_jsontext.py compares them).
"""

from __future__ import annotations

import json.encoder
from collections.abc import Callable
from typing import Any

_string: Callable[[str], str] = (
    json.encoder.c_encode_basestring or json.encoder.py_encode_basestring  # type: ignore[attr-defined]
)
_INFINITY = float("inf")


def dumps(doc: Any, *, sort_keys: bool = False) -> str:
    """``json.dumps(doc, indent=2, ensure_ascii=False, sort_keys=sort_keys)``."""
    out: list[str] = []
    _value(doc, "\n", out.append, sort_keys)
    return "".join(out)


def _float(value: float) -> str:
    if value != value:
        return "NaN"
    if value == _INFINITY:
        return "Infinity"
    if value == -_INFINITY:
        return "-Infinity"
    return float.__repr__(value)


def _key(key: object) -> str:
    if isinstance(key, str):
        return key
    if isinstance(key, float):
        return _float(key)
    if key is True:
        return "true"
    if key is False:
        return "false"
    if key is None:
        return "null"
    if isinstance(key, int):
        return int.__repr__(key)
    raise TypeError(
        f"keys must be str, int, float, bool or None, not {key.__class__.__name__}"
    )


def _value(
    value: Any, newline: str, write: Callable[[str], object], sort_keys: bool
) -> None:
    """Write ``value``; ``newline`` is a line break and the indent it sits at."""
    if isinstance(value, str):
        write(_string(value))
    elif value is None:
        write("null")
    elif value is True:
        write("true")
    elif value is False:
        write("false")
    elif isinstance(value, int):
        write(int.__repr__(value))
    elif isinstance(value, float):
        write(_float(value))
    elif isinstance(value, (list, tuple)):
        if not value:
            write("[]")
            return
        inner = newline + "  "
        write("[")
        first = True
        for item in value:
            write(inner if first else "," + inner)
            first = False
            if type(item) is str:  # the most common leaf, without a call
                write(_string(item))
            else:
                _value(item, inner, write, sort_keys)
        write(newline + "]")
    elif isinstance(value, dict):
        if not value:
            write("{}")
            return
        inner = newline + "  "
        write("{")
        first = True
        items = sorted(value.items()) if sort_keys else value.items()
        for key, item in items:
            write(inner if first else "," + inner)
            first = False
            if type(item) is str:  # the most common leaf, without a call
                write(f"{_string(_key(key))}: {_string(item)}")
            else:
                write(_string(_key(key)) + ": ")
                _value(item, inner, write, sort_keys)
        write(newline + "}")
    else:
        raise TypeError(
            f"Object of type {value.__class__.__name__} is not JSON serializable"
        )
