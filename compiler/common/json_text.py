"""JSON text: ``json.dumps(value, indent=2, ensure_ascii=False)``, about twice as fast.

With an indent, the standard library encodes in pure Python through nested
generators; the build writes large indented documents (``rules.json``, the
manifest), so this writes the very same text with one recursive function and
the C string encoder. Plain JSON values only (``dict`` with ``str`` keys,
``list``, ``tuple``, ``str``, ``int``, ``float``, ``bool``, ``None``); anything
else is left to ``json.dumps`` itself, so the answer is always the standard
library's.
"""

from __future__ import annotations

import json
from json.encoder import encode_basestring  # the C encoder where there is one
from typing import Any

_INDENT = "  "


class _NotPlain(Exception):
    """A value ``dumps`` leaves to the standard library."""


def dumps(value: Any, *, sort_keys: bool = False) -> str:
    """``json.dumps(value, indent=2, ensure_ascii=False, sort_keys=sort_keys)``."""
    out: list[str] = []
    try:
        _write(value, out, "\n", sort_keys)
    except _NotPlain:
        return json.dumps(value, indent=2, ensure_ascii=False, sort_keys=sort_keys)
    return "".join(out)


def _write(value: Any, out: list[str], newline: str, sort_keys: bool) -> None:
    kind = type(value)
    if kind is str:
        out.append(encode_basestring(value))
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif kind is int:
        out.append(int.__repr__(value))
    elif kind is float:
        if value != value or value in (float("inf"), float("-inf")):
            raise _NotPlain  # NaN and the infinities: as json writes them
        out.append(float.__repr__(value))
    elif kind is dict:
        if not value:
            out.append("{}")
            return
        inner = newline + _INDENT
        items = sorted(value.items()) if sort_keys else value.items()
        first = True
        for key, item in items:
            if type(key) is not str:
                raise _NotPlain
            out.append(("{" if first else ",") + inner)
            out.append(encode_basestring(key))
            out.append(": ")
            _write(item, out, inner, sort_keys)
            first = False
        out.append(newline + "}")
    elif kind is list or kind is tuple:
        if not value:
            out.append("[]")
            return
        inner = newline + _INDENT
        first = True
        for item in value:
            out.append(("[" if first else ",") + inner)
            _write(item, out, inner, sort_keys)
            first = False
        out.append(newline + "]")
    else:
        raise _NotPlain
