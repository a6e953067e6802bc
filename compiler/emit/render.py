"""Render: the Jinja environment and the templates that turn view-models into text."""

from __future__ import annotations

import hashlib
import os
import sys
from functools import cache
from pathlib import Path as FsPath
from typing import Any

import jinja2

from .literals import py

TEMPLATES = FsPath(__file__).resolve().parent / "templates"
# Jinja's compiled templates, kept as Python keeps compiled modules (beside the
# compiler, in __pycache__/); see _CompiledTemplates.
COMPILED = FsPath(__file__).resolve().parent / "__pycache__"


@cache
def environment() -> jinja2.Environment:
    """The one Jinja environment, with every setting spelled out: the templates
    of compiler/emit/templates/ by name (a kind holds none: its rules lower to the
    core, which the emitters print)."""
    settings: dict[str, Any] = {
        "undefined": jinja2.StrictUndefined,
        "autoescape": False,  # outputs are Python and Markdown; views escape what they print
        "keep_trailing_newline": True,
        "trim_blocks": True,
        "lstrip_blocks": True,
        "auto_reload": False,
    }
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        bytecode_cache=_CompiledTemplates(_compiled_folder(settings)),
        **settings,
    )
    env.filters["py"] = py
    env.filters["prefix"] = lambda text, before: f"{before}{text}"
    return env


def _compiled_folder(settings: dict[str, Any]) -> str:
    """Where this Jinja, this Python and these settings keep compiled templates.

    Jinja checks each compiled template against its template's source (a SHA-1 of
    it) and Python's version; the folder's name adds Jinja's version and the
    environment's settings, which shape the code too.
    """
    shown = repr(sorted((k, getattr(v, "__name__", v)) for k, v in settings.items()))
    tag = hashlib.sha256(f"{jinja2.__version__}|{shown}".encode()).hexdigest()[:16]
    return str(COMPILED / f"jinja-{sys.implementation.cache_tag}-{tag}")


class _CompiledTemplates(jinja2.FileSystemBytecodeCache):
    """Jinja's bytecode cache, used as ``__pycache__`` is: a compiled template
    is read when its source is unchanged, and one that cannot be read or written
    (a read-only install, a full disk) is compiled again, silently. It is
    rulesc's own cache, as ruff's and mypy's are theirs: written even when
    Python writes no bytecode of its modules (PYTHONDONTWRITEBYTECODE)."""

    def __init__(self, directory: str) -> None:
        super().__init__(directory, "%s.cache")

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except Exception:  # unreadable, truncated, from another Python: compile
            bucket.reset()

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            os.makedirs(self.directory, exist_ok=True)
            super().dump_bytecode(bucket)
        except OSError:
            return


def render(template: str, view: dict[str, Any]) -> str:
    """Render one template with one view-model."""
    return environment().get_template(template).render(view)
