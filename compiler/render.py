"""Render: the Jinja environment and the templates that turn view-models into text."""

from __future__ import annotations

from functools import cache
from pathlib import Path as FsPath
from typing import Any

import jinja2

from . import registry
from .literals import py

TEMPLATES = FsPath(__file__).resolve().parent / "templates"


def environment() -> jinja2.Environment:
    """The one Jinja environment, with every setting spelled out.

    The templates of compiler/templates/ by name; each kind's by
    ``<kind>/<target template>`` from its folder (see compiler/kinds/base.py).
    Made again when a kind is registered.
    """
    return _environment(registry.generation())


@cache
def _environment(generation: int) -> jinja2.Environment:
    kinds = {
        name: jinja2.FileSystemLoader(kind.folder)
        for name, kind in registry.kinds().items()
    }
    env = jinja2.Environment(
        loader=jinja2.ChoiceLoader(
            [jinja2.PrefixLoader(kinds), jinja2.FileSystemLoader(TEMPLATES)]
        ),
        undefined=jinja2.StrictUndefined,
        autoescape=False,  # outputs are Python and Markdown; views escape what they print
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=False,
    )
    env.filters["py"] = py
    env.filters["prefix"] = lambda text, before: f"{before}{text}"
    return env


def render(template: str, view: dict[str, Any]) -> str:
    """Render one template with one view-model."""
    return environment().get_template(template).render(view)
