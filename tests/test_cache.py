"""The build cache: a cached build writes byte for byte what a plain build writes.

Cold, warm, after one file changed, with a system added, with broken or
unwritable cache entries, and in worker processes; errors read exactly as
without the cache.
"""

from __future__ import annotations

import functools
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rulesc import pipeline
from rulesc.common.diagnostics import RulesError
from rulesc.front.loader import load_file
from rulesc.output import cache

from .conftest import PACKS, Editor, loaded_by_check_and_build, run_rulesc


@pytest.fixture(autouse=True)
def _serial(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("RULESC_JOBS", "1")
    yield


def plain(rules: Path) -> dict[str, bytes]:
    return dict(pipeline.build(rules).files)


def cached(rules: Path, store: Path) -> dict[str, bytes]:
    return dict(cache.build(rules, store).files)


class Spy:
    """Records what the pipeline is asked to do again."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.loaded: list[str] = []
        self.built: list[str] = []
        load_systems = pipeline.load_systems

        def spy_load(path: Path, shown: str) -> Any:
            self.loaded.append(shown)
            return load_file(path, shown)

        def spy_systems(*args: Any, **kwargs: Any) -> Any:
            systems = load_systems(*args, **kwargs)
            self.built += [s.id for s in systems]
            return systems

        monkeypatch.setattr(pipeline, "load_file", spy_load)
        monkeypatch.setattr(pipeline, "load_systems", spy_systems)


def copy_system(rules: Path, old: str, new: str) -> None:
    shutil.copytree(rules / old, rules / new)
    for path in (rules / new).glob("*.yaml"):
        text = re.sub(
            rf"^system: {old}$", f"system: {new}", path.read_text(), flags=re.M
        )
        path.write_text(text)


def test_cold_warm_and_one_change_builds_match_plain_builds(
    rules_copy: Path, edit: Editor, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = tmp_path / "cache"
    cold = cached(rules_copy, store)
    assert cold == plain(rules_copy)
    spy = Spy(monkeypatch)
    assert cached(rules_copy, store) == cold
    assert spy.loaded == [] and spy.built == []  # answered whole

    edit("d20_scifi/cover.yaml", "title: Cover and concealment\n", "title: Cover!\n")
    after = cached(rules_copy, store)
    # Only the changed file is read again, and only its system rebuilt.
    assert spy.loaded == ["rules/d20_scifi/cover.yaml"]
    assert spy.built == ["d20_scifi"]
    assert after == plain(rules_copy) != cold


def test_a_rebuild_reads_the_other_systems_parts_never_their_models(
    rules_copy: Path, edit: Editor, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = tmp_path / "cache"
    cached(rules_copy, store)
    read: list[str] = []
    load = cache.Store.load

    def spy(self: cache.Store, kind: str, key: str, expect: type[Any]) -> Any:
        read.append(kind)
        return load(self, kind, key, expect)

    monkeypatch.setattr(cache.Store, "load", spy)
    edit("d20_scifi/cover.yaml", "title: Cover and concealment\n", "title: Cover!\n")
    built = cache.build(rules_copy, store)
    assert "system" not in read  # no model of a system that was not built again
    assert read.count("part") == 3  # one for each system, the changed one missing
    assert dict(built.files) == plain(rules_copy)
    # The models are still there for whoever asks (the workbench does).
    assert [s.id for s in built.systems] == [
        s.id for s in pipeline.build(rules_copy).systems
    ]
    read.clear()
    again = cache.build(rules_copy, store)  # answered whole, from the parts
    assert dict(again.files) == dict(built.files)
    assert "system" not in read


def test_a_new_system_and_a_removed_one(rules_copy: Path, tmp_path: Path) -> None:
    store = tmp_path / "cache"
    cached(rules_copy, store)
    copy_system(rules_copy, "d20_scifi", "d20_copy")
    assert cached(rules_copy, store) == plain(rules_copy)
    shutil.rmtree(rules_copy / "d20_copy")
    assert cached(rules_copy, store) == plain(rules_copy)


def test_worker_processes_build_the_same(
    rules_copy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for n in range(3):
        copy_system(rules_copy, "d20_scifi", f"d20_copy{n}")
    monkeypatch.setenv("RULESC_JOBS", "2")
    monkeypatch.setattr(cache, "_PARALLEL_FROM", 2)
    assert cached(rules_copy, tmp_path / "cache") == plain(rules_copy)


def test_errors_are_those_of_a_plain_build(
    rules_copy: Path, edit: Editor, tmp_path: Path
) -> None:
    store = tmp_path / "cache"
    cached(rules_copy, store)
    edit("d20_scifi/cover.yaml", "cover_ac: 10", "cover_ac: ten")
    with pytest.raises(RulesError) as plain_error:
        pipeline.build(rules_copy)
    with pytest.raises(RulesError) as cached_error:
        cache.build(rules_copy, store)
    assert cached_error.value.diagnostics == plain_error.value.diagnostics


def test_broken_entries_are_misses(rules_copy: Path, tmp_path: Path) -> None:
    store = tmp_path / "cache"
    expected = cached(rules_copy, store)
    for path in store.rglob("*"):
        if path.is_file():
            path.write_bytes(b"not a pickle")
    assert cached(rules_copy, store) == expected


def test_a_cache_that_cannot_be_written_is_skipped(
    rules_copy: Path, tmp_path: Path
) -> None:
    store = tmp_path / "cache"
    store.write_text("a file, not a folder")
    assert cached(rules_copy, store) == plain(rules_copy)


def test_another_compiler_sets_the_entries_aside(
    rules_copy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = tmp_path / "cache"
    expected = cached(rules_copy, store)
    monkeypatch.setattr(cache, "compiler_fingerprint", lambda: "0" * 64)
    spy = Spy(monkeypatch)
    assert cached(rules_copy, store) == expected
    assert spy.built  # nothing was reused
    assert [p.name for p in store.iterdir()] == ["0" * 24]  # the old ones pruned


def test_the_fingerprint_changes_with_any_compiler_or_schema_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(cache._COMPILER, tmp_path / "compiler", ignore=ignore)
    shutil.copytree(cache._SCHEMA, tmp_path / "schema")
    monkeypatch.setattr(cache, "_COMPILER", tmp_path / "compiler")
    monkeypatch.setattr(cache, "_SCHEMA", tmp_path / "schema")
    fingerprint = functools.partial(cache._fingerprint.__wrapped__, 0)
    before = fingerprint()
    for rel in (
        "compiler/emit/templates/system.py.j2",
        "compiler/emit/templates/core/state.py.j2",
        "compiler/emit/templates/core/unit.py.j2",
        "compiler/emit/python/unit.py",
        "compiler/runtime/dice.py",
        "compiler/kinds/facts/rule.py",
        "compiler/kinds/facts/schema.json",
        "schema/common.schema.json",
    ):
        path = tmp_path / rel
        old = path.read_bytes()
        path.write_bytes(old + b"\n")
        assert fingerprint() != before, rel
        path.write_bytes(old)
    assert fingerprint() == before


def test_the_cli_keeps_its_cache_beside_the_output(rules_copy: Path) -> None:
    root = rules_copy.parent
    assert run_rulesc("build", "--no-cache", cwd=root).returncode == 0
    assert not (root / ".generated.cache").exists()
    assert run_rulesc("check", cwd=root).returncode == 0
    assert (root / ".generated.cache").is_dir()
    again = run_rulesc("check", cwd=root)
    assert again.returncode == 0 and "up to date" in again.stdout


def test_pruning_keeps_what_the_rules_as_they_are_need(
    rules_copy: Path, edit: Editor, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cache, "_KEEP_UNUSED", 0)
    monkeypatch.setattr(cache, "_KEEP_UNUSED_BUILDS", 0)
    store = tmp_path / "cache"
    cached(rules_copy, store)
    edit("d20_scifi/cover.yaml", "title: Cover and concealment\n", "title: Cover!\n")
    cached(rules_copy, store)
    [root] = store.iterdir()
    sources = list((root / "source").iterdir())
    assert len(sources) == len(list(rules_copy.glob("*/*.yaml")))  # the old one gone
    for kind in ("system", "part"):
        assert len(list((root / kind).iterdir())) == len(
            [p for p in rules_copy.iterdir() if p.is_dir()]
        )
    assert len(list((root / "build").iterdir())) == 1


def test_a_check_or_build_the_cache_answers_loads_no_yaml_schema_or_jinja(
    rules_copy: Path,
) -> None:
    """What the performance guide promises: with nothing changed, rulesc reads the cache
    and the output, and never imports the libraries a build needs (but the YAML
    reader, for a package.yaml that lists house packs)."""
    project = rules_copy.parent
    run_rulesc("build", cwd=project)
    heavy: tuple[str, ...] = ("jsonschema", "jinja2", "ruamel", "rulesc.front.model")
    heavy += () if PACKS else ("yaml",)
    assert loaded_by_check_and_build(project, heavy) == []
