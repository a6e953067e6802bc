"""House rules: a pack in a later --rules folder extends a system, overrides its figures and adds rules."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rulesc import pipeline
from rulesc.common.diagnostics import RulesError
from rulesc.front import house
from rulesc.front.loader import load_text
from rulesc.front.model import Override
from rulesc.front.semantics import build_system
from rulesc.kinds import registry

from .conftest import GENERATED, ROOT, copy_rules, run_rulesc
from .js_node import node_json
from .trace.matrix import names_a_source

PACK = ROOT / "tests" / "house"
BOTH = ("--rules", "rules", "--rules", "tests/house")  # the rules, then the pack
SYSTEM_LINE = "# yaml-language-server: $schema=../../schema/system.schema.json\n"
RULES_LINE = "# yaml-language-server: $schema=../../schema/rules.schema.json\n"


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The default rules and the pack tests/house/my_table, built by rulesc."""
    folder = tmp_path_factory.mktemp("house") / "out"
    done = run_rulesc(
        "build",
        *BOTH,
        "--out",
        str(folder),
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    return folder


def _answer(out: Path, system: str, call: str) -> object:
    done = subprocess.run(
        [sys.executable, "-c", f"import rulebook.{system} as m; print(repr({call}))"],
        cwd=out,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def _pack(tmp_path: Path, files: dict[str, str]) -> Path:
    """A folder of house rules: ``files`` by path under it, schema line added."""
    folder = tmp_path / "packs"
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        line = SYSTEM_LINE if path.name == "system.yaml" else RULES_LINE
        path.write_text(line + text, encoding="utf-8")
    return folder


RESTATED = (
    "  - rule: attack_through_cover\n"
    "    examples:\n"
    "      - name: warhead_vs_soft_keeps_ac\n"
    "        expect: {ac_bonus: 7}\n"
)


def _unrestated(folder: Path) -> Path:
    """A copy of tests/house at ``folder`` without the restated example."""
    shutil.copytree(PACK, folder)
    path = folder / "my_table" / "house.yaml"
    text = path.read_text(encoding="utf-8")
    assert RESTATED in text
    path.write_text(text.replace(RESTATED, ""), encoding="utf-8")
    return folder


def _build(folder: Path, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    return run_rulesc(
        "build",
        "--rules",
        "rules",
        "--rules",
        str(folder),
        "--out",
        str(tmp_path / "out"),
        cwd=ROOT,
    )


def _errors(done: subprocess.CompletedProcess[str], folder: Path) -> list[str]:
    """The error lines of a failed run, with the pack folder's path cut to packs/."""
    assert done.returncode == 1, done.stdout
    text = done.stderr.replace(str(folder.resolve()), "packs")
    return [line for line in text.splitlines() if ": error: " in line]


# -- the pack builds, as a system of its own --------------------------------------------


def test_the_pack_answers_its_own_figure_and_the_base_the_books(out: Path) -> None:
    assert _answer(out, "my_table", "m.cover('3/4').cover_ac") == "7"
    assert _answer(out, "d20_scifi", "m.cover('3/4').cover_ac") == "6"
    # a rule that reads the changed table follows it; the base's does not
    call = "m.attack_through_cover('3/4', 'soft', 'warhead', 'at_target').ac_bonus"
    assert _answer(out, "my_table", call) == "7"
    assert _answer(out, "d20_scifi", call) == "6"
    assert _answer(out, "my_table", "m.duck_for_cover('prone').cover_gained") == "'3/4'"


def test_the_base_system_is_built_byte_for_byte_as_alone(out: Path) -> None:
    for path in GENERATED.rglob("*"):
        rel = path.relative_to(GENERATED).as_posix()
        if path.is_file() and "d20_scifi" in rel and "__pycache__" not in rel:
            assert (out / rel).read_bytes() == path.read_bytes(), rel


def test_the_pack_has_its_own_module_pages_and_javascript(out: Path) -> None:
    for rel in (
        "rulebook/my_table.py",
        "js/my_table.js",
        "js/my_table.d.ts",
        "docs/my_table.md",
        "docs/my_table/cover.md",
        "docs/my_table/duck_for_cover.md",
    ):
        assert (out / rel).is_file(), rel
    rules = json.loads((out / "rules.json").read_text(encoding="utf-8"))
    ids = {s["id"]: s for s in rules["systems"]}
    assert "duck_for_cover" in {r["id"] for r in ids["my_table"]["rules"]}
    assert "duck_for_cover" not in {r["id"] for r in ids["d20_scifi"]["rules"]}


def test_rules_json_says_what_the_house_rules_change(out: Path) -> None:
    import jsonschema

    data = json.loads((out / "rules.json").read_text(encoding="utf-8"))
    schema = json.loads((out / "rules.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(data)
    systems = {s["id"]: s for s in data["systems"]}
    assert systems["my_table"]["house"] == {
        "extends": "d20_scifi",
        "changes": [
            {"rule": "cover", "where": ["rows", "3/4", "cover_ac"], "now": 7, "was": 6}
        ],
        "rules": ["duck_for_cover"],
        "source": True,
    }
    assert systems["d20_scifi"]["house"] is None  # every key, always


def test_the_javascript_module_answers_the_same(out: Path) -> None:
    js = (out / "js").as_posix()
    found = node_json(
        f"import * as m from '{js}/my_table.js';"
        f"import * as d from '{js}/d20_scifi.js';"
        "console.log(JSON.stringify([m.cover('3/4').coverAc, d.cover('3/4').coverAc,"
        " m.duckForCover('prone').coverGained]));"
    )
    assert found == [7, 6, "3/4"]


# -- the docs mark every change ---------------------------------------------------------


def test_the_docs_mark_the_override_beside_the_book(out: Path) -> None:
    page = (out / "docs/my_table/cover.md").read_text(encoding="utf-8")
    row = next(line for line in page.splitlines() if line.startswith("| 3/4 |"))
    assert "house rule: +7 AC, the book says +6 AC" in row
    assert (
        "House rule: Cover AC bonus for 3/4: +7 AC at this table (the book: +6 AC)."
        in page
    )
    book = (out / "docs/d20_scifi/cover.md").read_text(encoding="utf-8")
    assert "house rule" not in book.lower()
    # only the cell that changed is marked
    assert page.count("house rule:") == 1


def test_the_docs_mark_an_added_rule_as_a_house_rule(out: Path) -> None:
    page = (out / "docs/my_table/duck_for_cover.md").read_text(encoding="utf-8")
    assert "Source: none: a house rule, from no published source." in page
    assert "A house rule: it is not in the book." in page
    overview = (out / "docs/my_table.md").read_text(encoding="utf-8")
    assert "this system extends [d20 science fiction](d20_scifi.md)" in overview
    assert (
        "Changed by house rules: [Cover and concealment](my_table/cover.md)."
        in overview
    )
    assert "House rules: [Ducking for cover](my_table/duck_for_cover.md)." in overview


def test_the_restated_example_shows_the_house_answer(out: Path) -> None:
    page = (out / "docs/my_table/attack_through_cover.md").read_text(encoding="utf-8")
    # the call, under For programmers, gives the restated answer
    line = next(x for x in page.splitlines() if "warhead_vs_soft_keeps_ac" in x)
    assert line.endswith("gives `ac_bonus=7`."), line
    base = (out / "docs/d20_scifi/attack_through_cover.md").read_text("utf-8")
    assert "gives `ac_bonus=6`." in base


def test_validate_and_check_take_every_folder(out: Path) -> None:
    done = run_rulesc("validate", *BOTH, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "ok: 52 rules in 4 system(s), 212 worked examples hold\n"
    done = run_rulesc("validate", *BOTH, "tests/house/my_table", cwd=ROOT)
    assert done.stdout == "ok: 21 rules in 1 system(s), 82 worked examples hold\n", (
        done.stderr
    )
    done = run_rulesc(
        "check",
        *BOTH,
        "--out",
        str(out),
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr


def test_the_pack_is_not_traced_to_a_source() -> None:
    assert not names_a_source(PACK / "my_table")
    assert names_a_source(ROOT / "rules" / "d20_scifi")


# -- what changed, as data -------------------------------------------------------------


def test_the_changes_are_recorded_with_the_books_values() -> None:
    systems = {s.id: s for s in pipeline.load_systems(ROOT / "rules", more=[PACK])}
    marks = systems["my_table"].house
    assert marks is not None
    assert marks.base == "d20_scifi"
    assert marks.changes == (Override("cover", ("rows", "3/4", "cover_ac"), 7, 6),)
    assert marks.rules == ("duck_for_cover",)
    assert [(r, n) for r, n, _ in marks.restated] == [
        ("attack_through_cover", "warhead_vs_soft_keeps_ac")
    ]
    assert marks.at.file == "tests/house/my_table/system.yaml"
    assert systems["d20_scifi"].house is None


# -- errors ---------------------------------------------------------------------------


def test_every_error_is_located_and_reported_at_once(tmp_path: Path) -> None:
    folder = _pack(
        tmp_path,
        {
            "a/system.yaml": "system: a\nextends: d20_scfi\ntitle: A\nsummary: A.\n",
            "b/system.yaml": "system: b\nextends: c\ntitle: B\nsummary: B.\n",
            "c/system.yaml": "system: c\nextends: b\ntitle: C\nsummary: C.\n",
            "d/system.yaml": "system: d\nextends: d20_scifi\ntitle: D\nsummary: D.\n",
            "d/over.yaml": (
                "system: d\n"
                "overrides:\n"
                "  - rule: covr\n"
                "    title: x\n"
                "  - rule: cover\n"
                "    id: shelter\n"
                "    rows:\n"
                '      - key: "2/3"\n'
                "        cover_ac: 7\n"
                '      - key: "3/4"\n'
                "        cover_acc: 7\n"
                "    colour: red\n"
            ),
        },
    )
    assert _errors(_build(folder, tmp_path), folder) == [
        "packs/a/system.yaml:3:10: error: no system 'd20_scfi' to extend",
        "packs/c/system.yaml:3:10: error: systems extend each other in a cycle: b -> c -> b",
        "packs/d/over.yaml:4:11: error: no rule 'covr' in system 'd20_scifi' to override",
        "packs/d/over.yaml:7:5: error: an override cannot change a rule's id",
        "packs/d/over.yaml:9:14: error: cover: rows has no entry '2/3' to override",
        "packs/d/over.yaml:12:9: error: cover: rows 3/4 has no field 'cover_acc' to override",
        "packs/d/over.yaml:13:5: error: cover: the rule has no field 'colour' to override",
    ]
    text = _build(folder, tmp_path).stderr
    assert "hint: did you mean d20_scifi?" in text
    assert "hint: did you mean cover?" in text
    assert "hint: rows: 'Total', '9/10', '3/4', '1/2', '1/4'" in text
    assert "hint: did you mean cover_ac or coverage?" in text


def test_a_system_extending_itself_is_a_cycle(tmp_path: Path) -> None:
    folder = _pack(
        tmp_path, {"e/system.yaml": "system: e\nextends: e\ntitle: E\nsummary: E.\n"}
    )
    assert _errors(_build(folder, tmp_path), folder) == [
        "packs/e/system.yaml:3:10: error: systems extend each other in a cycle: e -> e"
    ]


def test_a_system_id_given_again_is_refused(tmp_path: Path) -> None:
    folder = _pack(
        tmp_path,
        {
            "gurps/system.yaml": "system: gurps\nextends: d20_scifi\ntitle: G\nsummary: G.\n"
        },
    )
    assert _errors(_build(folder, tmp_path), folder) == [
        "packs/gurps/system.yaml:2:9: error: system 'gurps' is already defined in "
        "rules/gurps/system.yaml"
    ]


def test_an_overridden_value_is_checked_where_the_pack_writes_it(
    tmp_path: Path,
) -> None:
    folder = _pack(
        tmp_path,
        {
            "d/system.yaml": "system: d\nextends: d20_scifi\ntitle: D\nsummary: D.\n",
            "d/over.yaml": (
                "system: d\noverrides:\n  - rule: attack_through_cover\n    title: 12\n"
            ),
        },
    )
    assert _errors(_build(folder, tmp_path), folder) == [
        "packs/d/over.yaml:5:12: error: 12 is not of type string"
    ]


def test_an_inherited_example_the_override_breaks_must_be_restated(
    tmp_path: Path,
) -> None:
    folder = _unrestated(tmp_path / "packs")
    done = _build(folder, tmp_path)
    lines = (ROOT / "rules" / "d20_scifi" / "cover.yaml").read_text().splitlines()
    line = lines.index("      - name: warhead_vs_soft_keeps_ac") + 1
    assert _errors(done, folder) == [
        "packs/my_table/system.yaml:3:10: error: inherited worked example "
        "'warhead_vs_soft_keeps_ac' of rule 'my_table.attack_through_cover' does not "
        "hold: expected ac_bonus=6, got ac_bonus=7 (the example is 'd20_scifi''s, at "
        f"rules/d20_scifi/cover.yaml:{line}; the house rules change its answer)"
    ]
    assert "hint: restate it in the house rules: under overrides, " in done.stderr


def test_a_restated_example_that_does_not_hold_is_placed_in_the_pack(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "packs"
    shutil.copytree(PACK, folder)
    path = folder / "my_table" / "house.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("{ac_bonus: 7}", "{ac_bonus: 8}"), encoding="utf-8")
    errors = _errors(_build(folder, tmp_path), folder)
    assert len(errors) == 1
    assert errors[0].startswith("packs/my_table/house.yaml:")
    assert "expected ac_bonus=8, got ac_bonus=7" in errors[0]


# -- house: true -----------------------------------------------------------------------


def test_a_house_system_needs_no_source_and_is_listed_as_such(tmp_path: Path) -> None:
    folder = _pack(
        tmp_path,
        {
            "homebrew/system.yaml": (
                "system: homebrew\nhouse: true\ntitle: Homebrew\nsummary: Our own.\n"
                "rounding: down\ndice_notation: d20\n"
            ),
            "homebrew/luck.yaml": (
                "system: homebrew\n"
                "rules:\n"
                "  - id: luck\n"
                "    kind: table\n"
                "    house: true\n"
                "    title: Luck\n"
                "    summary: How lucky a character feels.\n"
                "    function: luck\n"
                "    key: {param: mood, title: Mood, enum: Mood, members: "
                "[{name: GOOD, label: good}]}\n"
                "    row: LuckRow\n"
                "    columns: [{name: bonus, type: int, title: Bonus, "
                "description: The bonus.}]\n"
                "    rows: [{key: good, bonus: 1}]\n"
            ),
        },
    )
    done = _build(folder, tmp_path)
    assert done.returncode == 0, done.stderr
    page = (tmp_path / "out/docs/homebrew/luck.md").read_text(encoding="utf-8")
    assert "Source: none: a house rule, from no published source." in page
    overview = (tmp_path / "out/docs/homebrew.md").read_text(encoding="utf-8")
    assert "House rules: this system names no published source." in overview
    assert "House rules: [Luck](homebrew/luck.md)." in overview
    assert "traceability matrix" not in overview  # it has no source to trace
    assert "no source's passages are theirs to account for" in overview


def test_a_rule_without_a_source_must_say_house(tmp_path: Path) -> None:
    source = load_text(
        (
            RULES_LINE + "system: d\nrules:\n  - id: x\n    kind: table\n    title: X\n"
            "    summary: X.\n"
        ).encode(),
        "packs/d/x.yaml",
    )
    from rulesc.front.validate import validate

    messages = [d.message for d in validate(source)]
    assert "missing required key 'source'" in messages
    said = load_text(
        source.text.replace(
            "    kind: table", "    kind: table\n    house: true"
        ).encode(),
        "packs/d/x.yaml",
    )
    assert "missing required key 'source'" not in [d.message for d in validate(said)]


def test_overrides_merge_rows_by_label_and_add_rulings() -> None:
    (base_meta, base_files), *_ = pipeline.load_sources(ROOT / "rules", {"d20_scifi"})
    meta = load_text(
        (
            SYSTEM_LINE + "system: p\nextends: d20_scifi\ntitle: P\nsummary: P.\n"
        ).encode(),
        "h/p/system.yaml",
    )
    pack = load_text(
        (
            RULES_LINE + "system: p\noverrides:\n  - rule: cover\n    rows:\n"
            '      - {key: "1/4", miss_chance: 15}\n'
            "    rulings: [{id: r2, ruling: c, reason: d}]\n"
        ).encode(),
        "h/p/o.yaml",
    )
    merged = house.extend([(base_meta, base_files), (meta, [pack])])
    p_meta, p_files, ext = merged[1]
    assert p_meta.data["source"] == base_meta.data["source"]
    assert p_meta.data["title"] == "P"
    cover = next(f for f in p_files if f.path.endswith("cover.yaml"))
    rule = cover.data["rules"][0]
    assert cover.data["system"] == "p"
    assert [r["miss_chance"] for r in rule["rows"]] == [50, 40, 30, 20, 15]
    assert [r["id"] for r in rule["rulings"]] == ["total_cover_has_no_figures", "r2"]
    book = next(f for f in base_files if f.path.endswith("cover.yaml"))
    assert book.data["rules"][0]["rows"][4]["miss_chance"] == 10  # base untouched
    assert ext is not None
    assert ext.changes == [
        Override("cover", ("rows", "1/4", "miss_chance"), 15, 10),
        Override(
            "cover", ("rulings", "r2"), {"id": "r2", "ruling": "c", "reason": "d"}, None
        ),
    ]
    # an error at an overridden value is placed in the pack's file, others in the base's
    where = cover.error(("rules", 0, "rows", 4, "miss_chance"), "x")
    assert (where.file, where.line) == ("h/p/o.yaml", 6)
    where = cover.error(("rules", 0, "rows", 3, "miss_chance"), "x")
    assert where.file == "rules/d20_scifi/cover.yaml"


# -- the workbench: diff against the book, accept into the pack -------------------------


def test_diff_compares_the_house_rules_with_the_book() -> None:
    done = run_rulesc(
        "diff",
        *BOTH,
        "--house",
        "my_table",
        "--exit-code",
        cwd=ROOT,
    )
    assert done.returncode == 1, done.stderr  # behaviour changed
    lines = done.stdout.splitlines()
    assert lines[0] == "rulesc diff: d20_scifi (the book) -> my_table (its house rules)"
    assert (
        "      rows › 3/4 › cover_ac: 6 -> 7   (tests/house/my_table/house.yaml:7)"
        in lines
    )
    assert '      cover(level="3/4"): cover_ac 6 -> 7' in lines
    assert (
        "+ my_table.duck_for_cover: Ducking for cover   "
        + ("(tests/house/my_table/house.yaml:13)")
        in lines
    )
    assert lines[-1] == (
        "2 rule(s) changed in behaviour, 0 in text only, 1 added, 0 removed; "
        "18 unchanged"
    )


def test_diff_refuses_a_system_that_extends_none() -> None:
    done = run_rulesc(
        "diff",
        *BOTH,
        "--house",
        "gurps",
        cwd=ROOT,
    )
    assert done.returncode == 2
    assert "--house gurps: no system of house rules by that id" in done.stderr


def test_accept_restates_an_inherited_example_in_the_pack(tmp_path: Path) -> None:
    rules = tmp_path / "rules"
    copy_rules(rules)
    packs = _unrestated(tmp_path / "house")
    # the copies sit one folder less deep than tests/house: one ../ less
    for file in (packs / "my_table").glob("*.yaml"):
        file.write_text(
            file.read_text(encoding="utf-8").replace("../../../schema", "../../schema"),
            encoding="utf-8",
        )
    before = {p: p.read_bytes() for p in rules.rglob("*.yaml")}
    args = ("--rules", "rules", "--rules", "house")
    done = run_rulesc("accept", *args, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.endswith("accept: rewrote 1 worked example(s) in 1 file(s)\n")
    assert {p: p.read_bytes() for p in rules.rglob("*.yaml")} == before  # the book
    accepted = (packs / "my_table" / "accepted.yaml").read_text(encoding="utf-8")
    assert accepted == (
        "# yaml-language-server: $schema=../../schema/rules.schema.json\n"
        "system: my_table\n"
        "overrides:\n" + RESTATED
    )
    done = run_rulesc("build", *args, "--out", "out", cwd=tmp_path)
    assert done.returncode == 0, done.stderr


def test_house_rules_in_the_same_folder_build_and_validate_alone(
    tmp_path: Path,
) -> None:
    rules = tmp_path / "rules"
    shutil.copytree(ROOT / "rules", rules)  # the folder alone: no pack it lists
    shutil.copytree(PACK / "my_table", rules / "my_table")
    for file in (rules / "my_table").glob("*.yaml"):
        file.write_text(
            file.read_text(encoding="utf-8").replace("../../../schema", "../../schema"),
            encoding="utf-8",
        )
    done = run_rulesc("build", "--rules", "rules", "--out", "out", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert _answer(tmp_path / "out", "my_table", "m.cover('3/4').cover_ac") == "7"
    done = run_rulesc(  # and its base
        "validate", "--rules", "rules", "rules/my_table", cwd=tmp_path
    )
    assert done.stdout == "ok: 21 rules in 1 system(s), 82 worked examples hold\n", (
        done.stderr
    )


def test_overrides_in_a_system_that_extends_none_are_refused(tmp_path: Path) -> None:
    folder = _pack(
        tmp_path,
        {
            "q/system.yaml": (
                "system: q\ntitle: Q\nsummary: Q.\nsource: {file: f, work: w}\n"
                "rounding: down\ndice_notation: d20\n"
            ),
            "q/o.yaml": "system: q\noverrides:\n  - rule: x\n    title: y\n",
        },
    )
    assert _errors(_build(folder, tmp_path), folder) == [
        "packs/q/o.yaml:3:1: error: overrides apply only in a system that extends another"
    ]


def test_a_system_that_extends_is_not_built_unmerged() -> None:
    meta = load_text(
        (
            SYSTEM_LINE + "system: p\nextends: d20_scifi\ntitle: P\nsummary: P.\n"
        ).encode(),
        "h/p/system.yaml",
    )
    with pytest.raises(RulesError) as caught:
        build_system(meta, [], registry.kinds())
    (problem,) = caught.value.diagnostics
    assert (problem.line, problem.col) == (3, 10)
    assert problem.message == "system extends 'd20_scifi', which is not built with it"


def test_watch_builds_and_watches_every_folder(tmp_path: Path) -> None:
    from rulesc.workbench import watch

    out = tmp_path / "out"
    done = run_rulesc(
        "build", "--watch", "--max-builds", "1", *BOTH, "--out", str(out), cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    assert (out / "rulebook" / "my_table.py").is_file()
    packs = _unrestated(tmp_path / "packs")
    before = watch._digest(ROOT / "rules", (packs,))
    (packs / "my_table" / "house.yaml").write_text(
        "system: my_table\n", encoding="utf-8"
    )
    assert watch._digest(ROOT / "rules", (packs,)) != before  # a pack's change counts
