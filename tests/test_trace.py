"""The traceability matrix (tests/trace/<system>.yaml) against the rules and the sources.

Always: every rule, ruling, note and pointer the matrix names exists, and every
rule and not_modelled note of every system is traced to a passage. When the
source documents are beside the repository (``../shared/source/``, as in CI and
every working copy), the matrix lists exactly the passages the splitter finds:
a new, changed or moved passage fails, named by file, lines and digest.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import io
import itertools
import re
import shutil
from collections.abc import Callable
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from rulesc.lang.naming import words_of

from .conftest import ROOT, RULES, run_rulesc
from .trace import passages as splitter
from .trace.matrix import (
    SystemData,
    coverage_problems,
    load_matrix,
    load_system,
    matrices,
    names_a_source,
    passage_problems,
    reference_problems,
    resolves,
    shape_problems,
    source_problems,
)
from .trace.passages import Passage

SOURCES = Path(ROOT).parent / "shared" / "source"
# Only a system that names a source document is traced to it: house rules
# (``house: true``, or a system that ``extends`` another) have none of their own.
SYSTEMS = sorted(
    p.parent.name for p in RULES.glob("*/system.yaml") if names_a_source(p.parent)
)
NEW_SENTENCE = "A floating character takes a -4 penalty to every Spot check."
NEW_DIGEST = hashlib.sha256(NEW_SENTENCE.encode("utf-8")).hexdigest()[:12]


@functools.cache
def _system(name: str) -> SystemData:
    return load_system(RULES / name)


@functools.cache
def _loaded(name: str) -> dict[str, Any]:
    return load_matrix(matrices()[name])


def _matrix(name: str) -> dict[str, Any]:
    """A fresh copy of a system's matrix, for a test to change as it likes."""
    return copy.deepcopy(_loaded(name))


def _sources_here() -> bool:
    return SOURCES.is_dir()


# -- the matrices and the rules ------------------------------------------------


def test_every_system_has_a_matrix_and_nothing_else_does() -> None:
    assert sorted(matrices()) == SYSTEMS
    for name in SYSTEMS:
        assert _matrix(name)["system"] == name


@pytest.mark.parametrize("name", SYSTEMS)
def test_matrix_entries_are_well_formed(name: str) -> None:
    assert shape_problems(_matrix(name)) == []


@pytest.mark.parametrize("name", SYSTEMS)
def test_every_rule_ruling_note_and_pointer_named_exists(name: str) -> None:
    assert reference_problems(_matrix(name), _system(name)) == []


@pytest.mark.parametrize("name", SYSTEMS)
def test_every_rule_and_note_is_traced_to_a_passage(name: str) -> None:
    system = _system(name)
    assert system.rules, name
    assert coverage_problems(_matrix(name), system) == []


@pytest.mark.parametrize("name", SYSTEMS)
def test_not_modelled_notes_are_shown_on_the_system_page(name: str) -> None:
    page = (ROOT / "generated" / "docs" / f"{name}.md").read_text(encoding="utf-8")
    notes = _system(name).not_modelled
    assert "## What the rules leave out" in page
    assert "traceability matrix" in page
    assert "tests/" not in page  # no internal file name on a reader's page
    section = page.split("## What the rules leave out", 1)[1]
    for note in notes:  # led by the id in words; the id is for programmers
        lead = words_of(note)
        assert f"- **{lead[:1].upper()}{lead[1:]}**: " in section
        assert note in section.split("## For programmers", 1)[1]
    assert section.count("Why not:") == len(notes)
    if notes:
        assert f"The source states {len(notes)} mechanic" in section
    else:
        assert "leave out none of the source's mechanics" in section


@pytest.mark.parametrize("name", SYSTEMS)
def test_a_not_modelled_id_given_twice_is_a_located_error(
    name: str, rules_copy: Path
) -> None:
    path = rules_copy / name / "system.yaml"
    text = path.read_text(encoding="utf-8")
    if "not_modelled:" not in text:
        text += "not_modelled:\n"
    note = "  - id: twice\n    summary: Said once.\n    reason: Said twice.\n"
    text += note + note
    path.write_text(text, encoding="utf-8")
    line = len(text.splitlines()) - 2
    result = run_rulesc("validate", cwd=rules_copy.parent)
    assert result.returncode == 1
    assert (
        f"rules/{name}/system.yaml:{line}:9: error: duplicate id 'twice' in not_modelled"
        in result.stdout + result.stderr
    )
    path.write_text(text.replace("    reason: Said twice.\n", "", 1), encoding="utf-8")
    result = run_rulesc("validate", cwd=rules_copy.parent)
    assert result.returncode == 1
    assert "error: missing required key 'reason'" in result.stdout + result.stderr


def _entries(kind: str) -> list[tuple[str, int]]:
    return [
        (name, index)
        for name in SYSTEMS
        for index, entry in enumerate(_matrix(name)["passages"])
        if kind in entry
    ]


@pytest.mark.parametrize(("name", "index"), _entries("rules"))
def test_an_unknown_rule_id_is_named(name: str, index: int) -> None:
    matrix = copy.deepcopy(_matrix(name))
    entry = matrix["passages"][index]
    entry["rules"] = [*entry["rules"], "no_such_rule"]
    problems = reference_problems(matrix, _system(name))
    assert len(problems) == 1
    assert f"lines {entry['lines']}" in problems[0]
    assert "no rule 'no_such_rule'" in problems[0]


@pytest.mark.parametrize(("name", "index"), _entries("at"))
def test_a_pointer_outside_the_rule_is_named(name: str, index: int) -> None:
    matrix = copy.deepcopy(_matrix(name))
    entry = matrix["passages"][index]
    entry["at"] = [*entry["at"], "/rows/999/nothing"]
    problems = reference_problems(matrix, _system(name))
    assert len(problems) == 1
    assert "'/rows/999/nothing' is not in rule" in problems[0]


@pytest.mark.parametrize(("name", "index"), _entries("ruling"))
def test_an_unknown_ruling_is_named(name: str, index: int) -> None:
    matrix = copy.deepcopy(_matrix(name))
    entry = matrix["passages"][index]
    entry["ruling"] += "_not"
    problems = reference_problems(matrix, _system(name))
    assert problems == [
        f"{matrix['source']}: passage {index + 1} (lines {entry['lines']}): no ruling"
        f" {entry['ruling']!r} (write system.rule_id.ruling_id)"
    ]


@pytest.mark.parametrize(("name", "index"), _entries("not_modelled"))
def test_an_unknown_not_modelled_note_is_named(name: str, index: int) -> None:
    matrix = copy.deepcopy(_matrix(name))
    entry = matrix["passages"][index]
    entry["not_modelled"] += "_not"
    problems = reference_problems(matrix, _system(name))
    assert len(problems) == 1
    assert f"no not_modelled note {entry['not_modelled']!r}" in problems[0]


def _traced() -> list[tuple[str, str, str]]:
    found = []
    for name in SYSTEMS:
        system = _system(name)
        found += [(name, "rules", rule) for rule in system.rules]
        found += [(name, "not_modelled", note) for note in system.not_modelled]
    return found


@pytest.mark.parametrize(("name", "kind", "target"), _traced())
def test_a_rule_or_note_no_passage_names_is_reported(
    name: str, kind: str, target: str
) -> None:
    """Take it out of every entry that names it: then it is reported untraced."""
    matrix = _matrix(name)
    for entry in matrix["passages"]:
        if kind == "rules" and target in entry.get("rules", []):
            entry["rules"].remove(target)
            entry.pop("at", None)
        ruled = str(entry.get("ruling", "")).split(".")[1:2] == [target]
        if (
            entry.get(kind) == target
            or (kind == "rules" and ruled)
            or entry.get("rules") == []
        ):
            for key in ("rules", "at", "ruling", "not_modelled"):
                entry.pop(key, None)
            entry["no_mechanic"] = True
    problems = coverage_problems(matrix, _system(name))
    assert len(problems) == 1
    assert repr(target) in problems[0]
    assert "is not traced to any passage" in problems[0]


@pytest.mark.parametrize("name", SYSTEMS)
def test_an_entry_with_two_accounts_or_none_is_refused(name: str) -> None:
    matrix = _matrix(name)
    for index in range(len(matrix["passages"])):
        broken = copy.deepcopy(matrix)
        entry = broken["passages"][index]
        if "no_mechanic" in entry:
            entry["not_modelled"] = "anything"
        else:
            entry["no_mechanic"] = True
        problems = shape_problems(broken)
        assert len(problems) == 1, problems
        assert "needs exactly one of" in problems[0]
        for key in ("rules", "ruling", "not_modelled", "no_mechanic", "at"):
            entry.pop(key, None)
        assert any("(has none)" in p for p in shape_problems(broken))


def test_json_pointers_resolve_as_rfc_6901_says() -> None:
    data = {"a/b": [{"m~n": 1}], "rows": [0, 1], "": {"x": None}}
    assert resolves(data, "")
    assert resolves(data, "/a~1b/0/m~0n")
    assert resolves(data, "/rows/1")
    assert resolves(data, "//x")
    assert not resolves(data, "/rows/2")
    assert not resolves(data, "/rows/01")
    assert not resolves(data, "/rows/-1")
    assert not resolves(data, "rows/0")
    assert not resolves(data, "/a~1b/0/m~0n/deeper")


def test_a_pointer_may_name_a_list_item_by_its_id_name_or_key() -> None:
    data = {
        "items": [
            {"id": "first", "v": 1},
            {"name": "second", "id": "other"},
            {"key": "third"},
            {"key": "7"},
            {"name": "twice"},
            {"name": "twice"},
            "plain",
        ]
    }
    assert resolves(data, "/items/first/v")
    assert resolves(data, "/items/other")  # the id comes before the name
    assert not resolves(data, "/items/second")
    assert resolves(data, "/items/third")
    assert not resolves(data, "/items/twice")  # not one item
    assert not resolves(data, "/items/plain")
    assert resolves(data, "/items/6")  # digits are an index
    assert not resolves(data, "/items/7")
    for name in SYSTEMS:
        for rule_id, rule in _system(name).rules.items():
            for index, ruling in enumerate(rule.get("rulings", [])):
                assert resolves(rule, f"/rulings/{ruling['id']}"), rule_id
                assert resolves(rule, f"/rulings/{index}/id")


# -- the matrices and the sources ----------------------------------------------


@pytest.mark.parametrize("name", SYSTEMS)
def test_the_matrix_lists_exactly_the_source_passages(name: str) -> None:
    matrix = _matrix(name)
    system = _system(name)
    if not _sources_here():
        # Without the sources, the matrix still must be in line order with
        # distinct entries (what can be checked of it alone).
        keys = [(e["lines"], e["digest"]) for e in matrix["passages"]]
        assert len(set(keys)) == len(keys)
        return
    problems = source_problems(matrix, SOURCES / system.source_file)
    assert problems == [], "\n".join(problems)


def _sentence_ends(name: str) -> list[tuple[str, int]]:
    """Passages a sentence can be appended to on the same line, by system."""
    if not _sources_here():
        return []
    system = _system(name)
    found = splitter.passages(SOURCES / system.source_file)
    lines = (SOURCES / system.source_file).read_text(encoding="utf-8").splitlines()
    return [
        (name, index)
        for index, p in enumerate(found)
        if p.text.endswith(".")
        and "\t" not in lines[p.last - 1]
        and "|" not in lines[p.last - 1]
        and lines[p.last - 1].count(p.text.split()[-1]) == 1
    ]


def _copy_source(name: str, tmp_path: Path) -> tuple[Path, list[str]]:
    file = _system(name).source_file
    target = tmp_path / file
    shutil.copyfile(SOURCES / file, target)
    return target, target.read_text(encoding="utf-8").split("\n")


def _assert_names_only_by_lines_and_digest(problems: list[str], file: str) -> None:
    for problem in problems:
        assert problem.startswith(f"{file}:")
        assert NEW_SENTENCE not in problem
        assert NEW_SENTENCE[:20] not in problem


def _change_last_word(
    name: str, index: int, tmp_path: Path, change: Callable[[str], str]
) -> tuple[str, Passage, list[str]]:
    """Check a copy of the source in which the passage's last word is changed."""
    source, lines = _copy_source(name, tmp_path)
    passage = splitter.passages(source)[index]
    last = passage.text.split()[-1]
    line = lines[passage.last - 1]
    at = line.index(last)
    lines[passage.last - 1] = line[:at] + change(last) + line[at + len(last) :]
    source.write_text("\n".join(lines), encoding="utf-8")
    return source.name, passage, source_problems(_matrix(name), source)


@pytest.mark.parametrize(
    ("name", "index"), [c for n in SYSTEMS for c in _sentence_ends(n)]
)
def test_a_new_sentence_in_a_paragraph_fails_naming_it(
    name: str, index: int, tmp_path: Path
) -> None:
    """A sentence appended after an existing one, on its line: only it is named."""
    file, passage, problems = _change_last_word(
        name, index, tmp_path, lambda word: f"{word} {NEW_SENTENCE}"
    )
    assert problems == [
        f"{file}:{passage.last}-{passage.last}: untraced passage, digest"
        f" {NEW_DIGEST}: new; add it to the matrix and classify it"
    ]
    _assert_names_only_by_lines_and_digest(problems, file)


def _block_gaps(name: str) -> list[tuple[str, int]]:
    """Blank lines of a source a paragraph can be added at, by system."""
    if not _sources_here():
        return []
    lines = (SOURCES / _system(name).source_file).read_text(encoding="utf-8")
    return [
        (name, number)
        for number, line in enumerate(lines.split("\n"), start=1)
        if not line.strip()
    ]


@pytest.mark.parametrize(
    ("name", "blank"), [c for n in SYSTEMS for c in _block_gaps(n)]
)
def test_a_new_paragraph_fails_naming_it_and_the_passages_it_moves(
    name: str, blank: int, tmp_path: Path
) -> None:
    source, lines = _copy_source(name, tmp_path)
    before = splitter.passages(source)
    lines[blank - 1 : blank] = ["", NEW_SENTENCE, ""]
    source.write_text("\n".join(lines), encoding="utf-8")
    problems = source_problems(_matrix(name), source)
    new = (
        f"{source.name}:{blank + 1}-{blank + 1}: untraced passage, digest {NEW_DIGEST}:"
    )
    assert any(p.startswith(new) for p in problems), problems
    moved = [p for p in before if p.first > blank]
    # Each moved passage is reported twice: untraced where it is, stale where it was.
    assert len(problems) == 1 + 2 * len(moved)
    for p in moved:
        assert f"{source.name}:{p.first + 2}-{p.last + 2}: untraced passage," in (
            "\n".join(problems)
        )
        assert f"{source.name}:{p.lines}: the matrix lists digest {p.digest}" in (
            "\n".join(problems)
        )
    _assert_names_only_by_lines_and_digest(problems, source.name)


@pytest.mark.parametrize(
    ("name", "index"), [c for n in SYSTEMS for c in _sentence_ends(n)][::5]
)
def test_a_reworded_passage_fails_as_changed(
    name: str, index: int, tmp_path: Path
) -> None:
    file, passage, problems = _change_last_word(
        name, index, tmp_path, lambda word: f"X{word}"
    )
    assert len(problems) == 2, problems
    assert problems[0].startswith(f"{file}:{passage.lines}: untraced passage")
    assert "changed" in problems[0]
    assert problems[1].startswith(
        f"{file}:{passage.lines}: the matrix lists digest {passage.digest}"
    )


def test_the_order_of_entries_is_checked() -> None:
    found = splitter.split_text("One. Two.\n\nThree.\n")
    matrix = {"passages": [{"lines": p.lines, "digest": p.digest} for p in found]}
    assert passage_problems(matrix, found, "f.txt") == []
    matrix["passages"].reverse()
    assert passage_problems(matrix, found, "f.txt") == [
        "f.txt: the matrix lists its passages out of order"
    ]
    assert shape_problems(matrix)  # and so does the shape check


# -- the splitter --------------------------------------------------------------


SPLITS = [
    # (document, the passages' texts, their line ranges)
    (
        "Title\n\nOne sentence. Another one.\n",
        ["Title", "One sentence.", "Another one."],
        ["1-1", "3-3", "3-3"],
    ),
    (
        "See e.g. Table 2 and (p. 558) too. Next.",
        ["See e.g. Table 2 and (p. 558) too.", "Next."],
        ["1-1", "1-1"],
    ),
    (
        "Cf. Ch. 3 i.e. Part 4. Vs. Five.",
        ["Cf. Ch. 3 i.e. Part 4.", "Vs. Five."],
        ["1-1", "1-1"],
    ),
    ("Cover pro-\ntects you.", ["Cover protects you."], ["1-2"]),
    ("A two-\nHanded grip.", ["A two- Handed grip."], ["1-2"]),
    ("Level\tDC\nLow\t12\n", ["Level DC", "Low 12"], ["1-1", "2-2"]),
    ("Table: Odds\nA\tB\n", ["Table: Odds", "A B"], ["1-1", "2-2"]),
    (
        "Options:\n• First one.\nrunning on. Then.\n• Second",
        ["Options:", "• First one. running on.", "Then.", "• Second"],
        ["1-1", "2-3", "3-3", "4-4"],
    ),
    (
        "- Dash item: -1 (Example)\n- Another\n",
        ["- Dash item: -1 (Example)", "- Another"],
        ["1-1", "2-2"],
    ),
    (
        "10ft. + [5ft. per point]*\n*Floor 5ft.\n**Max 40.",
        ["10ft. + [5ft. per point]*", "*Floor 5ft.", "**Max 40."],
        ["1-1", "2-2", "3-3"],
    ),
    (
        "It is true.[1]\nFiring Back\nYou fire.",
        ["It is true.[1]", "Firing Back", "You fire."],
        ["1-1", "2-2", "3-3"],
    ),
    ("Short line\nthen lowercase.", ["Short line then lowercase."], ["1-2"]),
    (
        'He said "Stop." Then left. (Aside.) Done!',
        ['He said "Stop."', "Then left.", "(Aside.)", "Done!"],
        ["1-1"] * 4,
    ),
    (
        "Wrapped text,\nCapital Word Here\n(p. 5) more.",
        ["Wrapped text, Capital Word Here (p. 5) more."],
        ["1-3"],
    ),
    (
        "Short Title\nBody text follows.",
        ["Short Title", "Body text follows."],
        ["1-1", "2-2"],
    ),
    (
        "A sentence ends.\nCapital Line\nlower goes on.",
        ["A sentence ends.", "Capital Line lower goes on."],
        ["1-1", "2-3"],
    ),
    ("   \n\t\nAlone\n \n", ["Alone"], ["3-3"]),
    (
        "| a | b |\n|---|\nx | y |\nProse after.",
        ["| a | b |", "|---|", "x | y |", "Prose after."],
        ["1-1", "2-2", "3-3", "4-4"],
    ),
    ("Rolls 2d6. 3 more.", ["Rolls 2d6.", "3 more."], ["1-1", "1-1"]),
    ("Not split. lower case.", ["Not split. lower case."], ["1-1"]),
]


@pytest.mark.parametrize(("document", "texts", "lines"), SPLITS)
def test_the_splitter_follows_its_rules(
    document: str, texts: list[str], lines: list[str]
) -> None:
    found = splitter.split_text(document)
    assert [p.text for p in found] == texts
    assert [p.lines for p in found] == lines
    for p in found:
        assert p.digest == hashlib.sha256(p.text.encode("utf-8")).hexdigest()[:12]
        assert p.digest == splitter.digest(p.text)


_WORDS = st.sampled_from(
    [
        "Cover",
        "the",
        "e.g.",
        "p.",
        "12",
        "-2",
        "foe.",
        "Hit!",
        "pro-",
        "(see",
        "it)",
        "“DR”",
        "•",
        "-",
        "*",
        "|",
        "\t",
        "Table:",
        "d6.",
        "ok?",
    ]
)
_LINE = st.lists(_WORDS, max_size=9).map(" ".join)
_DOCUMENT = st.lists(st.one_of(_LINE, st.just(""), st.just("  ")), max_size=25).map(
    "\n".join
)


@settings(max_examples=300, deadline=None)
@given(_DOCUMENT)
def test_passages_partition_every_document(document: str) -> None:
    """The passages, in order, are the whole text; each lies within its lines."""
    found = splitter.split_text(document)
    joined = " ".join(p.text for p in found)
    if not re.search(r"-[ \t]*\n", document):
        assert joined == splitter.normalize(document)
    # A hyphen at a line's end is joined only inside a passage, so hyphens aside:
    assert re.sub(r"[\s-]", "", joined) == re.sub(r"[\s-]", "", document)
    lines = document.splitlines()
    covered: set[int] = set()
    for before, after in itertools.pairwise(found):
        assert (before.first, before.last) <= (after.first, after.last)
        assert before.last <= after.first
    for p in found:
        assert 1 <= p.first <= p.last <= len(lines)
        assert p.text
        assert lines[p.first - 1].strip() and lines[p.last - 1].strip()
        assert all(lines[n - 1].strip() for n in range(p.first, p.last + 1))
        covered |= set(range(p.first, p.last + 1))
    assert covered == {n for n, line in enumerate(lines, start=1) if line.strip()}
    assert splitter.split_text(document) == found  # deterministic


@settings(max_examples=200, deadline=None)
@given(
    st.text(max_size=60).filter(lambda t: "-" not in t),
    st.sampled_from([" ", "  ", "\t", "\n", " \n "]),
)
def test_the_digest_ignores_how_whitespace_runs(text: str, gap: str) -> None:
    spaced = re.sub(r"\s+", gap, text)
    assert splitter.digest(spaced) == splitter.digest(text)


def test_the_skeleton_printer_prints_an_entry_per_passage(tmp_path: Path) -> None:
    source = tmp_path / "doc.txt"
    source.write_text("Heading\n\nOne rule. Two rules.\nA\tB\n", encoding="utf-8")
    out = io.StringIO()
    with redirect_stdout(out):
        assert splitter.main([str(source)]) == 0
    text = out.getvalue()
    assert text.startswith(f"# {source}\n")
    entries = YAML(typ="safe").load(text)
    assert entries == [
        {"lines": p.lines, "digest": p.digest} for p in splitter.passages(source)
    ]
    assert len(entries) == 4
    for p in splitter.passages(source):
        assert p.text not in text  # entries name passages, never quote them
    assert splitter.main([]) == 2
