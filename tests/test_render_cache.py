"""Jinja's compiled templates are kept as __pycache__ keeps modules: never stale,
never in the way (compiler/emit/render.py)."""

from __future__ import annotations

import os
from pathlib import Path

import jinja2
import pytest

from rulesc.emit import render


def _env(templates: Path, compiled: Path) -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(templates),
        bytecode_cache=render._CompiledTemplates(str(compiled)),
        auto_reload=False,
    )


def test_the_build_environment_keeps_compiled_templates_beside_the_compiler() -> None:
    cache = render.environment().bytecode_cache
    assert isinstance(cache, render._CompiledTemplates)
    assert Path(cache.directory).parent == render.COMPILED
    assert render.COMPILED.name == "__pycache__"
    assert render.environment() is render.environment()  # one per process


def test_a_compiled_template_is_used_until_its_source_changes(tmp_path: Path) -> None:
    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "a.j2").write_text("one {{ x }}\n")
    compiled = tmp_path / "c" / "jinja"
    assert _env(tmp_path / "t", compiled).get_template("a.j2").render(x=1) == "one 1"
    assert len(os.listdir(compiled)) == 1
    assert _env(tmp_path / "t", compiled).get_template("a.j2").render(x=2) == "one 2"
    (tmp_path / "t" / "a.j2").write_text("two {{ x }}\n")
    assert _env(tmp_path / "t", compiled).get_template("a.j2").render(x=3) == "two 3"


def test_a_broken_compiled_template_is_compiled_again(tmp_path: Path) -> None:
    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "a.j2").write_text("{{ x }}\n")
    compiled = tmp_path / "c"
    _env(tmp_path / "t", compiled).get_template("a.j2")
    [entry] = compiled.iterdir()
    entry.write_bytes(entry.read_bytes()[:40])
    assert _env(tmp_path / "t", compiled).get_template("a.j2").render(x=5) == "5"


def test_a_folder_that_cannot_be_written_is_skipped_silently(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "a.j2").write_text("{{ x }}\n")

    def refused(*args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied")  # as a read-only folder

    monkeypatch.setattr(os, "makedirs", refused)
    env = _env(tmp_path / "t", tmp_path / "locked" / "jinja")
    assert env.get_template("a.j2").render(x=7) == "7"
    assert not (tmp_path / "locked").exists()


def test_a_file_where_the_folder_belongs_is_skipped_silently(tmp_path: Path) -> None:
    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "a.j2").write_text("{{ x }}\n")
    (tmp_path / "c").write_text("not a folder")
    assert _env(tmp_path / "t", tmp_path / "c").get_template("a.j2").render(x=8) == "8"
