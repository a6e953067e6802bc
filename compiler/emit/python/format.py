"""Format and validate: run ruff's formatter on generated Python, then parse it.

A tiny render -> format -> validate step: the formatter is ruff (pinned in
pyproject.toml so that output is byte-identical everywhere), and the result must
parse as Python before anything is written.
"""

from __future__ import annotations

import ast
import subprocess
import tempfile
from collections.abc import Collection, Mapping
from functools import cache
from pathlib import Path as FsPath

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


def format_many(
    sources: Mapping[str, str], parsed: Collection[str] = ()
) -> dict[str, str]:
    """``format_python`` for many files (by file name) in one ruff run.

    Starting ruff once per file costs more than formatting does; the output is
    byte-identical to formatting each file alone. ``parsed`` names the files the
    caller has already parsed (their syntax is not checked again).
    """
    if len(sources) < 2:
        return {name: format_python(text, name) for name, text in sources.items()}
    for name, text in sources.items():
        if name in parsed:
            continue
        try:
            ast.parse(text, filename=name)
        except SyntaxError as exc:
            raise FormatError(f"{name}:{exc.lineno}:{exc.offset}: {exc.msg}") from None
    with tempfile.TemporaryDirectory(prefix="rulesc-format-") as tmp:
        paths = {}
        for index, (name, text) in enumerate(sources.items()):
            # One folder per file: names need not be unique or safe as paths.
            folder = FsPath(tmp) / str(index)
            folder.mkdir()
            paths[name] = folder / (FsPath(name).name or "module.py")
            paths[name].write_bytes(text.encode("utf-8"))
        done = subprocess.run(
            [_ruff(), *_ARGS, "--no-cache", "--quiet", *map(str, paths.values())],
            cwd=tmp,
            capture_output=True,
            check=False,
        )
        if done.returncode != 0:
            raise FormatError(
                f"ruff format failed: {done.stderr.decode(errors='replace')}"
            )
        return {name: path.read_bytes().decode("utf-8") for name, path in paths.items()}
