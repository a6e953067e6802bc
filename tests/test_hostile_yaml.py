"""Hostile YAML: the loader fails fast, in bounded time and memory, with located errors.

The corpus in tests/invalid/ pins each error's wording; these tests push the limits
further than a case file can (10,000 nested brackets, a gigabyte file, an alias bomb
whose expansion would not fit in memory) and prove that any exception the YAML
library raises, of whatever class, becomes a located rules error.
"""

from __future__ import annotations

import time
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from rulesc.common.diagnostics import (
    Diagnostic,
    RulesError,
)
from rulesc.front import loader
from rulesc.front.loader import (
    MAX_FILE_BYTES,
    load_file,
    load_text,
)

BILLION_LAUGHS = b"".join(
    [b'a0: &a0 ["lol"]\n']
    + [
        b"a%d: &a%d [%s]\n" % (n, n, b", ".join([b"*a%d" % (n - 1)] * 10))
        for n in range(1, 10)
    ]
    + [b"rules: *a9\n"]
)


def _error(load: Callable[[], object], *, memory: bool = False) -> Diagnostic:
    """The one located error ``load`` raises, in bounded time (and memory).

    Time is the process's CPU time (a busy machine does not slow it), measured
    apart from memory (tracing every allocation is itself slow).
    """
    start = time.process_time()
    with pytest.raises(RulesError) as caught:
        load()
    assert time.process_time() - start < 2.0
    if memory:
        tracemalloc.start()
        try:
            with pytest.raises(RulesError):
                load()
            assert tracemalloc.get_traced_memory()[1] < 20_000_000
        finally:
            tracemalloc.stop()
    [diagnostic] = caught.value.diagnostics
    return diagnostic


def test_alias_bomb_fails_at_the_first_anchor() -> None:
    d = _error(lambda: load_text(BILLION_LAUGHS, "bomb.yaml"), memory=True)
    assert (d.file, d.line, d.col) == ("bomb.yaml", 1, 5)
    assert d.message == "anchors (&name) are not allowed"


def test_alias_without_anchor_fails_before_any_expansion() -> None:
    text = b"rules: [" + b", ".join([b"*a"] * 50_000) + b"]\n"
    d = _error(lambda: load_text(text, "x.yaml"), memory=True)
    assert (d.line, d.col, d.message) == (1, 9, "aliases (*name) are not allowed")


@pytest.mark.parametrize("opener", [b"[", b"- ", b"{a: "])
def test_ten_thousand_levels_fail_at_the_depth_limit(opener: bytes) -> None:
    text = opener * 10_000 + b"x"
    d = _error(lambda: load_text(text, "x.yaml"))
    assert d.message == f"nesting deeper than {loader.MAX_DEPTH} levels"
    assert d.line == 1


def test_deep_block_nesting_fails_at_the_depth_limit() -> None:
    text = "".join(f"{'  ' * n}k{n}:\n" for n in range(200)).encode()
    d = _error(lambda: load_text(text, "x.yaml"))
    assert d.message == f"nesting deeper than {loader.MAX_DEPTH} levels"
    assert (d.line, d.col) == (loader.MAX_DEPTH + 1, 2 * loader.MAX_DEPTH + 1)


def test_a_huge_file_is_refused_without_being_read(tmp_path: Path) -> None:
    huge = tmp_path / "huge.yaml"
    with open(huge, "wb") as handle:
        handle.truncate(1 << 30)  # a sparse gigabyte of NULs
    d = _error(lambda: load_file(huge, "rules/x/huge.yaml"), memory=True)
    assert (d.file, d.line, d.col) == ("rules/x/huge.yaml", 1, 1)
    assert d.message == (
        f"file is {1 << 30} bytes; rules files may be at most {MAX_FILE_BYTES} bytes"
    )


def test_a_file_at_the_limit_is_read(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_bytes(b"a: 1\n" + b"#" * (MAX_FILE_BYTES - 6) + b"\n")
    assert load_file(path, "big.yaml").data == {"a": 1}


def test_unsafe_file_names_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "a b-->.yaml"
    path.write_bytes(b"a: 1\n")
    d = _error(lambda: load_file(path, "rules/x/a b-->.yaml"))
    assert d.message.startswith("file name 'a b-->.yaml' may use only ASCII letters")


def test_a_folder_named_like_a_rules_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "odd.yaml").mkdir()
    d = _error(lambda: load_file(tmp_path / "odd.yaml", "odd.yaml"))
    assert (d.line, d.col, d.message) == (1, 1, "not a regular file")


class _Odd(Exception):
    """An exception class the loader has never heard of, with no position."""


class _Marked(Exception):
    def __init__(self) -> None:
        super().__init__("odd")
        self.problem = "something odd"
        self.problem_mark = type("Mark", (), {"line": 2, "column": 4})()


class _Positioned(Exception):
    def __init__(self) -> None:
        super().__init__("unacceptable character #xfffe\n  in position 8")
        self.position = 8


@pytest.mark.parametrize(
    ("error", "where", "message"),
    [
        (RecursionError("maximum recursion depth exceeded"), (1, 5), "maximum"),
        (TypeError("unhashable type: 'list'"), (1, 5), "unhashable type: 'list'"),
        (MemoryError(), (1, 5), "MemoryError"),
        (_Odd(), (1, 5), "_Odd"),
        (_Marked(), (3, 5), "something odd"),
        (_Positioned(), (2, 4), "unacceptable character #xfffe"),
    ],
)
def test_any_parser_exception_becomes_a_located_error(
    monkeypatch: pytest.MonkeyPatch,
    error: Exception,
    where: tuple[int, int],
    message: str,
) -> None:
    real_parse = YAML.parse

    def failing_parse(self: YAML, stream: Any) -> Iterator[Any]:
        for count, event in enumerate(real_parse(self, stream)):
            if count == 5:
                raise error
            yield event

    monkeypatch.setattr(YAML, "parse", failing_parse)
    # ruamel's parser places every error; libyaml's only ever supplies trees
    monkeypatch.setattr(loader, "FAST_PARSER", False)
    d = _error(lambda: load_text(b"a: 1\nb: 2\nc: 3\n", "x.yaml"))
    assert (d.line, d.col) == where
    assert d.message.startswith("YAML syntax error: ")
    assert message in d.message


@pytest.mark.parametrize(
    "error",
    [RecursionError("deep"), MemoryError(), _Odd(), _Marked(), _Positioned()],
)
def test_any_c_parser_exception_hands_the_file_to_ruamel(
    monkeypatch: pytest.MonkeyPatch, error: Exception
) -> None:
    kit = loader._fast_kit()
    assert kit is not None, "PyYAML is built with libyaml"
    parser_class, kinds = kit
    read_by_ruamel: list[str] = []
    real_parse = YAML.parse

    def spy_parse(self: YAML, stream: Any) -> Iterator[Any]:
        read_by_ruamel.append(stream)
        yield from real_parse(self, stream)

    class Failing:
        def __init__(self, text: str) -> None:
            self.inner = parser_class(text)
            self.count = 0

        def get_event(self) -> Any:
            self.count += 1
            if self.count == 5:
                raise error
            return self.inner.get_event()

        def dispose(self) -> None:
            self.inner.dispose()

    monkeypatch.setattr(loader, "_fast_kit", lambda: (Failing, kinds))
    monkeypatch.setattr(YAML, "parse", spy_parse)
    source = load_text(b"a: 1\nb: 2\nc: 3\n", "x.yaml")
    assert source.data == {"a": 1, "b": 2, "c": 3}
    assert source.positions[("c",)] == (3, 4)
    assert read_by_ruamel == ["a: 1\nb: 2\nc: 3\n"]


def test_a_bug_in_the_loader_is_not_disguised_as_a_syntax_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(self: object, event: object) -> object:
        raise KeyError("a bug")

    monkeypatch.setattr(loader._Builder, "scalar", broken)
    with pytest.raises(KeyError):
        load_text(b"a: 1\n", "x.yaml")
