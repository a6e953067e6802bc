"""rulesc accept changes only the bytes of the expects it rewrites: every line
ending (LF, CRLF, mixed), trailing space, comment and link stays; a file changed
between read and write is refused, never corrupted."""

from __future__ import annotations

import os
import signal
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesc.cli import EXIT_OK, EXIT_RULES, main
from rulesc.common.diagnostics import RulesError
from rulesc.front.loader import load_text
from rulesc.workbench import rewrite
from rulesc.workbench.yaml_edit import apply, edits, node_spans
from rulesc.workbench.yaml_text import hidden

from .accept_packs import hostile
from .test_strings_are_data import yaml_text

ROOT = Path(__file__).resolve().parent.parent
SETTINGS = settings(
    max_examples=200,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

# -- generated documents: the pure edit ------------------------------------------

ints = st.integers(-99, 99)
# the leaves of an answer: numbers, null, and text with every character the
# loader refuses or a terminal hides (accept writes those as escapes)
leaves = st.one_of(ints, st.none(), hostile)
values: st.SearchStrategy[Any] = st.one_of(
    leaves,
    st.lists(leaves, min_size=1, max_size=4),
    st.dictionaries(st.sampled_from(["a", "b", "c"]), leaves, min_size=1),
)
endings = st.sampled_from(["\n", "\r\n"])
tails = st.sampled_from(["", "  ", "   ", "  # why", " # x: [1]\t"])
# how a document writes its text and null: quoted "..." or '...' (or plain where
# it can), null as null, ~ or nothing at all (in block style)
styles = st.sampled_from(['"', "'", ""])
nulls = st.sampled_from(["null", "~", ""])


@st.composite
def documents(draw: st.DrawFn) -> tuple[str, list[Any]]:
    """A rules-like document of examples, each expect in flow or block style,
    every line with its own ending, trailing space and comment."""
    expects = draw(st.lists(values, min_size=1, max_size=4))
    quote, null = draw(styles), draw(nulls)
    out: list[str] = []

    def line(text: str, tail: bool = True) -> None:
        out.append(text.rstrip(" ") + (draw(tails) if tail else "") + draw(endings))

    def leaf(value: Any) -> str:
        return _leaf(value, quote, null)

    line("rules:", tail=False)
    line("  - id: r")
    line("    examples:", tail=False)
    for n, value in enumerate(expects):
        if draw(st.booleans()):
            line("")  # a blank line
        if draw(st.booleans()):
            line("      # a comment of its own", tail=False)
        line(f"      - name: e{n}")
        block = draw(st.booleans()) and isinstance(value, list | dict)
        if not block:
            text = leaf(value) if not isinstance(value, list | dict) else None
            line(f"        expect: {text if text is not None else _flow(value, quote)}")
        elif isinstance(value, list):
            line("        expect:", tail=False)
            for item in value:
                line(f"          - {leaf(item)}")
        else:
            line("        expect:", tail=False)
            for key, item in value.items():
                line(f"          {key}: {leaf(item)}")
    if draw(st.booleans()):
        out[-1] = out[-1].rstrip("\r\n")  # no line ending at the end
    return "".join(out), expects


def _leaf(value: Any, quote: str, null: str = "null") -> str:
    """A number, null or text as a document writes it (text in ``quote``
    where it can be, else double-quoted)."""
    if value is None:
        return null
    if not isinstance(value, str):
        return str(value)
    if quote == "" and _plain(value):
        return value
    if quote == "'" and "'" not in value and not any(hidden(c) for c in value):
        return f"'{value}'"
    return yaml_text(value)


def _plain(value: str) -> bool:
    """Whether ``value`` may be written plain, in a flow collection too."""
    if any(c in value for c in "{}[],"):
        return False
    try:
        return bool(load_text(f"v: {value}\n".encode(), "x").data == {"v": value})
    except RulesError:
        return False


def _flow(value: Any, quote: str) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_leaf(v, quote) for v in value) + "]"
    if isinstance(value, dict):
        return (
            "{" + ", ".join(f"{k}: {_leaf(v, quote)}" for k, v in value.items()) + "}"
        )
    return _leaf(value, quote)


def _path(n: int) -> tuple[str | int, ...]:
    return ("rules", 0, "examples", n, "expect")


@SETTINGS
@given(documents(), st.data())
def test_an_accepted_expect_changes_its_own_bytes_only(
    doc: tuple[str, list[Any]], data: st.DataObject
) -> None:
    text, expects = doc
    n = data.draw(st.integers(0, len(expects) - 1))
    new = data.draw(values)
    after = apply(text, list(edits(text, _path(n), expects[n], new)))
    loaded = load_text(after.encode(), "x.yaml").data
    assert loaded["rules"][0]["examples"][n]["expect"] == new
    others = [e["expect"] for i, e in enumerate(loaded["rules"][0]["examples"])]
    assert others[:n] + others[n + 1 :] == expects[:n] + expects[n + 1 :]
    # before and after the expect's node, every byte is as it was
    start, end = node_spans(text)[_path(n)]
    tail = len(text) - end
    assert after[:start] == text[:start]
    assert after[len(after) - tail :] == text[end:]
    # what accept wrote holds no character the loader refuses or a terminal
    # hides: each is an escape
    assert _hidden(after) <= _hidden(text)
    written = after[start : len(after) - tail]
    # a node of the same shape keeps its own line endings, item by item; one
    # written again whole takes the line ending of its first line
    breaks = rewrite.LINE_BREAK.findall(written)
    if _shape(new) == _shape(expects[n]):
        assert breaks == rewrite.LINE_BREAK.findall(text[start:end])
    else:
        assert set(breaks) <= {rewrite.break_at(text, start)}


def _hidden(text: str) -> Counter[str]:
    return Counter(c for line in rewrite.lines(text) for c in line if hidden(c))


def _shape(value: Any) -> Any:
    if isinstance(value, list):
        return len(value)
    if isinstance(value, dict):
        return list(value)
    return None


# -- the write: links, modes, concurrent edits ------------------------------------


@SETTINGS
@given(
    documents(),
    st.sampled_from(["plain", "link", "link to link"]),
    st.sampled_from([0o644, 0o600, 0o664]),
    st.one_of(st.none(), st.binary(min_size=1, max_size=40)),
    st.booleans(),
)
def test_a_rewrite_is_whole_through_links_or_refused_when_changed(
    doc: tuple[str, list[Any]],
    how: str,
    mode: int,
    meanwhile: bytes | None,
    by_rename: bool,
) -> None:
    """Another writer saving the file between read and write, in place or by
    renaming a new file over it, as editors do, wins: its bytes stay."""
    text, expects = doc
    before = text.encode()
    after = apply(text, list(edits(text, _path(0), expects[0], [7, 7]))).encode()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        target = folder / "real.yaml"
        target.write_bytes(before)
        os.chmod(target, mode)
        path = target
        if how != "plain":
            path = folder / "link.yaml"
            path.symlink_to("real.yaml")
        if how == "link to link":
            (folder / "first.yaml").symlink_to("link.yaml")
            path = folder / "first.yaml"
        beside = (folder / "beside.txt", b"not mine\r\n")
        beside[0].write_bytes(beside[1])
        edited = before + meanwhile if meanwhile is not None else None

        def edit_meanwhile(at: Path) -> None:
            if edited is None:
                return
            if by_rename:
                (folder / "saved.tmp").write_bytes(edited)
                os.chmod(folder / "saved.tmp", mode)
                os.replace(folder / "saved.tmp", at)
            else:
                at.write_bytes(edited)

        hook = rewrite._before_replace
        rewrite._before_replace = edit_meanwhile  # type: ignore[assignment]
        try:
            why = rewrite.replace(path, before, after)
        finally:
            rewrite._before_replace = hook
        if edited is None:
            assert why is None
            assert target.read_bytes() == after
        else:  # refused: the other writer's bytes, exactly
            assert why == "it changed since rulesc accept read it"
            assert target.read_bytes() == edited
        assert target.stat().st_mode & 0o7777 == mode
        if how != "plain":
            assert path.is_symlink() and (folder / "link.yaml").is_symlink()
        assert beside[0].read_bytes() == beside[1]
        names = {"real.yaml", "beside.txt", "link.yaml", "first.yaml"}
        assert {p.name for p in folder.iterdir()} <= names  # no temporary file


def test_a_file_with_other_hard_links_is_refused(tmp_path: Path) -> None:
    target = tmp_path / "a.yaml"
    target.write_bytes(b"a: 1\r\n")
    os.link(target, tmp_path / "b.yaml")
    why = rewrite.replace(target, b"a: 1\r\n", b"a: 2\r\n")
    assert (
        why
        == "it has 1 other hard link(s), which a rewritten file would no longer share"
    )
    assert (tmp_path / "b.yaml").read_bytes() == b"a: 1\r\n" == target.read_bytes()


@pytest.mark.parametrize("there", [None, "file", "link to nothing", "made meanwhile"])
def test_a_new_file_is_made_whole_only_where_there_is_none(
    tmp_path: Path, there: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A house rules' accepted.yaml accept makes: in place whole, with the mode
    a new file gets; never over anything there (a link to nothing included),
    even put there between its write and its placing."""
    target = tmp_path / "accepted.yaml"
    if there == "file":
        target.write_bytes(b"mine\n")
    elif there == "link to nothing":
        target.symlink_to("nowhere.yaml")
    elif there == "made meanwhile":
        monkeypatch.setattr(rewrite, "_before_replace", lambda at: at.write_bytes(b"x"))
    umask = os.umask(0o022)
    os.umask(umask)
    why = rewrite.write(target, None, b"a: 1\r\n")
    if there is None:
        assert why is None
        assert target.read_bytes() == b"a: 1\r\n"
        assert target.stat().st_mode & 0o777 == 0o666 & ~umask
    else:
        assert why == "it changed since rulesc accept read it"
        assert os.path.lexists(target) and target.is_symlink() == (
            there == "link to nothing"
        )
    assert [p.name for p in tmp_path.iterdir()] == ["accepted.yaml"]


# -- rulesc accept, end to end -----------------------------------------------------

RULE = """\
# yaml-language-server: $schema=../../schema/rules.schema.json
system: tiny
rules:
  - id: bonus
    kind: formula
    title: Bonus
    summary: Half of what is above ten.
    source:
      section: Bonus
    function: bonus
    parameters:
      - name: score
        type: int
        min: 1
        max: 50
        description: The score.
    expression: (score - 10) // 2
    examples:
      - name: fifteen{SPACES}
        summary: Fifteen gives two.{SPACES}
        args: {score: 15}
        expect: 9  # was 2
      - name: seven
        summary: Seven gives minus two.
        args: {score: 7}
        expect: -2
"""


def _tiny(tmp_path: Path, ending: str = "\r\n") -> tuple[Path, Path]:
    rules = tmp_path / "rules"
    (rules / "tiny").mkdir(parents=True)
    system = (ROOT / "tests" / "cookbook" / "cookbook" / "system.yaml").read_text()
    (rules / "tiny" / "system.yaml").write_text(
        system.replace("system: cookbook", "system: tiny")
    )
    path = rules / "tiny" / "bonus.yaml"
    path.write_bytes(RULE.replace("{SPACES}", "   ").replace("\n", ending).encode())
    return rules, path


def _accept(rules: Path) -> int:
    return main(["accept", "--no-cache", "--rules", str(rules)])


def test_accept_keeps_crlf_and_shows_one_changed_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rules, path = _tiny(tmp_path)
    before = path.read_bytes()
    assert _accept(rules) == EXIT_OK
    out = capsys.readouterr().out
    changed = [
        line
        for line in out.splitlines()
        if line[:1] in "+-" and line[:3] not in ("+++", "---")
    ]
    assert changed == ["-        expect: 9  # was 2", "+        expect: 2  # was 2"]
    assert path.read_bytes() == before.replace(b"expect: 9", b"expect: 2")
    assert "rewrote 1 worked example(s) in 1 file(s)" in out


def test_accept_writes_through_a_link(tmp_path: Path) -> None:
    rules, path = _tiny(tmp_path, "\n")
    real = rules / "tiny" / "real.txt"
    path.rename(real)
    path.symlink_to("real.txt")
    before = real.read_bytes()
    assert _accept(rules) == EXIT_OK
    assert path.is_symlink() and os.readlink(path) == "real.txt"
    assert real.read_bytes() == before.replace(b"expect: 9", b"expect: 2")


def _meanwhile(monkeypatch: pytest.MonkeyPatch, act: Callable[[Path], object]) -> None:
    monkeypatch.setattr(rewrite, "_before_replace", act)


def test_accept_refuses_a_file_edited_meanwhile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    rules, path = _tiny(tmp_path)
    theirs = path.read_bytes().replace(b"Seven", b"Se7en")
    _meanwhile(monkeypatch, lambda at: at.write_bytes(theirs))
    assert _accept(rules) == EXIT_RULES
    captured = capsys.readouterr()
    assert "rewrote 0 worked example(s) in 0 file(s); 1 need a person" in captured.out
    assert (
        "rules/tiny/bonus.yaml:1:1: error: rules/tiny/bonus.yaml was left as it is: "
        "it changed since rulesc accept read it\n"
        "  hint: run rulesc accept again, or write its expect by hand"
    ) in captured.err
    assert path.read_bytes() == theirs
    assert sorted(p.name for p in path.parent.iterdir()) == [
        "bonus.yaml",
        "system.yaml",
    ]


def test_accept_refuses_a_file_with_a_byte_order_mark(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rules, path = _tiny(tmp_path)
    before = b"\xef\xbb\xbf" + path.read_bytes()
    path.write_bytes(before)
    assert _accept(rules) == EXIT_RULES
    assert "file starts with a byte order mark (U+FEFF)" in capsys.readouterr().err
    assert path.read_bytes() == before


def test_ctrl_c_while_accept_writes_is_reported_as_it_ended(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ctrl-C during the write is held until the file is in place: the report
    says it was written, and it was."""
    rules, path = _tiny(tmp_path)
    before = path.read_bytes()
    _meanwhile(monkeypatch, lambda at: os.kill(os.getpid(), signal.SIGINT))
    assert _accept(rules) == 130
    err = capsys.readouterr().err
    assert err == "rulesc: interrupted; rules/tiny/bonus.yaml was written\n"
    assert path.read_bytes() == before.replace(b"expect: 9", b"expect: 2")


def test_accept_refuses_a_file_edited_after_the_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The answers were worked out from the file as built: a file saved since
    (its expect no longer the one built) is left as it is."""
    from rulesc.workbench import accept, workspace

    rules, path = _tiny(tmp_path)
    built = workspace.open_workspace

    def then_edit(*args: Any, **kwargs: Any) -> Any:
        space = built(*args, **kwargs)
        path.write_bytes(path.read_bytes().replace(b"expect: 9", b"expect: 8"))
        return space

    monkeypatch.setattr(accept, "open_workspace", then_edit)
    assert _accept(rules) == EXIT_RULES
    edited = path.read_bytes()
    assert b"expect: 8" in edited and b"expect: 2" not in edited
    assert "bonus.yaml was left as it is: it changed since rulesc accept read it" in (
        capsys.readouterr().err
    )
