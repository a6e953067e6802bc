"""Format and validate: run ruff's formatter on generated Python, then parse it.

A tiny render -> format -> validate step: the formatter is ruff (pinned in
pyproject.toml so that output is byte-identical everywhere), and the result must
parse as Python before anything is written.
"""

from __future__ import annotations

import ast
import subprocess
from functools import cache

_ARGS = ("format", "--isolated", "--line-length", "88", "--target-version", "py311")


@cache
def _ruff() -> str:
    from ruff.__main__ import find_ruff_bin

    return str(find_ruff_bin())


class FormatError(Exception):
    """Generated Python that does not format or parse: a compiler bug."""


def format_python(source: str, name: str) -> str:
    """Formatted ``source``; raises ``FormatError`` if it is not valid Python."""
    try:
        ast.parse(source, filename=name)
    except SyntaxError as exc:
        raise FormatError(f"{name}:{exc.lineno}:{exc.offset}: {exc.msg}") from None
    done = subprocess.run(
        [_ruff(), *_ARGS, "--stdin-filename", name, "-"],
        input=source.encode("utf-8"),
        capture_output=True,
        check=False,
    )
    if done.returncode != 0:
        raise FormatError(
            f"{name}: ruff format failed: {done.stderr.decode(errors='replace')}"
        )
    return done.stdout.decode("utf-8")
