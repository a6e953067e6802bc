"""House packs listed in rules/package.yaml: every command reads them with no --rules, check names other folders once."""

from __future__ import annotations

import contextlib
import io
import json
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from rulesc.cli import EXIT_OK, EXIT_RULES, main
from rulesc.front.loader import load_text
from rulesc.workbench.yaml_text import flow

from .conftest import ROOT, RULES, loaded_by_check_and_build

LISTED = "house_packs: [../tests/house]\n"


def _project(folder: Path, listed: str = LISTED, *systems: str) -> Path:
    """A fresh clone's layout at ``folder``: rules/ (or only its ``systems``),
    schema/, the Makefile and the pack at tests/house, listed in the copy's
    rules/package.yaml."""
    keep = shutil.ignore_patterns(*{p.name for p in RULES.iterdir()} - {*systems})
    shutil.copytree(RULES, folder / "rules", ignore=keep if systems else None)
    shutil.copytree(ROOT / "schema", folder / "schema")
    shutil.copy(ROOT / "Makefile", folder / "Makefile")
    shutil.copytree(ROOT / "tests" / "house", folder / "tests" / "house")
    settings = folder / "rules" / "package.yaml"
    settings.write_text(
        _unlisted(settings.read_text(encoding="utf-8")) + listed, "utf-8"
    )
    return folder


def _unlisted(text: str) -> str:
    """package.yaml's text without its house_packs (the project may list some)."""
    yaml = YAML()
    data = yaml.load(text)
    if "house_packs" not in data:
        return text
    del data["house_packs"]
    out = io.StringIO()
    yaml.dump(data, out)
    return out.getvalue()


def _run(folder: Path, *argv: str) -> tuple[int, str, str]:
    """``rulesc ARGV`` run in-process from ``folder``: exit code, stdout, stderr."""
    out, err = io.StringIO(), io.StringIO()
    with (
        contextlib.chdir(folder),
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
    ):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The project, validated and built with no --rules (once for the module)."""
    folder = _project(tmp_path_factory.mktemp("clone"))
    code, out, err = _run(folder, "validate")
    # the three systems of rules/ and the pack's: every worked example holds
    assert code == EXIT_OK, err
    assert re.fullmatch(
        r"ok: \d+ rules in 4 system\(s\), \d+ worked examples hold\n", out
    )
    code, _, err = _run(folder, "build", "--out", "generated")
    assert code == EXIT_OK, err
    yield folder


def test_build_with_no_flag_holds_the_pack(built: Path) -> None:
    generated = built / "generated"
    assert (generated / "rulebook" / "my_table.py").is_file()
    assert (generated / "docs" / "my_table" / "duck_for_cover.md").is_file()
    manifest = json.loads((generated / "manifest.json").read_text("utf-8"))
    assert manifest["folders"] == ["rules", "tests/house"]
    assert _run(built, "check") == (EXIT_OK, "ok: generated/ is up to date\n", "")


def test_check_given_other_folders_says_that_once(built: Path) -> None:
    code, _, err = _run(built, "check", "--rules", "rules")
    assert code == EXIT_RULES
    errors = [line for line in err.splitlines() if ": error: " in line]
    assert errors == [
        "generated/manifest.json:1:1: error: generated/ was built with house "
        "folder tests/house, which this check was not given"
    ], err
    assert "hint: list it under house_packs in rules/package.yaml" in err
    assert "was removed" not in err


def test_make_needs_no_rules_flag(built: Path) -> None:
    """make build, docs and check call rulesc with no --rules (a dry run; the
    venv and KaTeX taken as made: the site is built from generated/)."""
    made = (".venv/.installed", "docsite/node_modules/katex/dist/katex.min.js")
    done = subprocess.run(
        ["make", "-n", *(f"--assume-old={m}" for m in made), "build", "docs", "check"],
        cwd=built,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    calls = [line for line in done.stdout.splitlines() if "rulesc " in line]
    assert {re.sub(r"^\S*rulesc ", "", c) for c in calls} >= {"build", "check"}
    assert not [c for c in calls if "--rules" in c]
    assert "mkdocs build" in done.stdout


def test_a_house_build_is_cached_whole_and_an_edit_in_the_pack_is_seen(
    tmp_path: Path,
) -> None:
    """With a pack listed, ``check`` and ``build`` answer from the cache (one
    entry for the whole build: the pack's system follows d20_scifi's files)
    without loading the build's libraries, and an edit in the pack or in the
    system it extends makes the check name the rule."""
    folder = _project(tmp_path)
    assert _run(folder, "build")[0] == EXIT_OK
    entries = sorted((folder / ".generated.cache").glob("*/house/*.pickle"))
    assert len(entries) == 1
    heavy = ("jsonschema", "jinja2", "ruamel", "rulesc.front.model")
    assert loaded_by_check_and_build(folder, heavy) == []
    for path, old, new, rule in (
        (
            "tests/house/my_table/house.yaml",
            "Ducking for cover",
            "Ducking",
            "duck_for_cover",
        ),
        (
            "rules/d20_scifi/zero_g.yaml",
            "max_increments: 20,",
            "max_increments: 25,",
            "zero_g_weapon_range",
        ),
    ):
        text = (folder / path).read_text("utf-8")
        (folder / path).write_text(text.replace(old, new, 1), "utf-8")
        code, _, err = _run(folder, "check")
        assert code == EXIT_RULES
        assert f"rule my_table.{rule} changed since generated/ was built" in err
        assert _run(folder, "build")[0] == EXIT_OK
        assert _run(folder, "check")[0] == EXIT_OK
    # each build stored its own entry (the older kept a while, as any build's)
    assert len(sorted((folder / ".generated.cache").glob("*/house/*.pickle"))) > 1


def test_watch_reads_the_list_again_and_watches_a_pack_listed_meanwhile(
    tmp_path: Path,
) -> None:
    """``build --watch`` with no --rules: a pack listed while it watches is
    built at that save, and an edit in the pack is then a change."""
    folder = _project(tmp_path, "")
    settings = folder / "rules" / "package.yaml"
    module = folder / "generated" / "rulebook" / "my_table.py"
    argv = ["build", "--watch", "--max-builds", "3", "--poll", "0.1"]
    with subprocess.Popen(
        [sys.executable, "-m", "rulesc", *argv],
        cwd=folder,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as watcher:
        try:
            _until(watcher, (folder / "generated" / "manifest.json").exists)
            assert not module.exists()
            settings.write_text(settings.read_text("utf-8") + LISTED, "utf-8")
            _until(watcher, module.exists)
            pack = folder / "tests" / "house" / "my_table" / "house.yaml"
            text = pack.read_text("utf-8")
            pack.write_text(text.replace("Ducking for cover", "Ducking", 1), "utf-8")
            out, err = watcher.communicate(timeout=120)
        finally:
            if watcher.poll() is None:
                watcher.kill()
    assert watcher.returncode == 0, err
    assert [line.split(" ok: ")[0] != line for line in out.splitlines()[1:]] == [
        True,
        True,
        True,
    ], out
    page = folder / "generated" / "docs" / "my_table" / "duck_for_cover.md"
    assert "# Ducking\n" in page.read_text("utf-8")


def _until(watcher: subprocess.Popen[str], done: Callable[[], bool]) -> None:
    """Wait (at most a minute) until ``done()``, the watcher still running."""
    deadline = time.monotonic() + 60
    while not done():
        assert watcher.poll() is None, watcher.stderr.read() if watcher.stderr else ""
        assert time.monotonic() < deadline, "the watcher did not build"
        time.sleep(0.05)


@pytest.mark.parametrize(
    ("listed", "said"),
    [
        ("house_packs: [../tests/house, ../nowhere]\n", "is no such folder"),
        ("house_packs:\n  - ../tests/house/my_table\n", "holds no system folder"),
    ],
)
def test_a_pack_that_is_no_rules_folder_is_a_located_error(
    tmp_path: Path, listed: str, said: str
) -> None:
    folder = tmp_path  # the error comes before any rule is read
    (folder / "rules" / "d20_scifi").mkdir(parents=True)
    (folder / "tests" / "house" / "my_table").mkdir(parents=True)
    (folder / "rules" / "package.yaml").write_text(
        _unlisted((ROOT / "rules" / "package.yaml").read_text("utf-8")) + listed,
        "utf-8",
    )
    line = (folder / "rules" / "package.yaml").read_text("utf-8").count("\n")
    for command in ("validate", "build", "roll"):
        code, _, err = _run(folder, command, *(["d6"] if command == "roll" else []))
        assert code == EXIT_RULES, err
        [error] = [x for x in err.splitlines() if ": error: " in x]
        assert re.match(rf"rules/package\.yaml:{line}:\d+: error: house pack ", error)
        assert said in error and "Traceback" not in err
        assert "hint: each house pack is a folder" in err
    # the command line overrides the list: the rules alone are read (and the
    # empty system folder is what is wrong with them)
    code, _, err = _run(folder, "validate", "--rules", "rules")
    assert code == EXIT_RULES and "house pack" not in err
    assert "rules/d20_scifi" in err, err


def test_accepted_yaml_reads_as_the_rules_files(tmp_path: Path) -> None:
    """accept (no --rules: the listed pack) restates every inherited example a
    change breaks under one override of its rule, in plain YAML."""
    folder = _project(tmp_path, LISTED, "d20_scifi", "package.yaml")  # the base
    pack = folder / "tests" / "house" / "my_table" / "house.yaml"
    text = pack.read_text("utf-8")
    restated = text[text.index("  - rule: attack_through_cover") : text.index("rules:")]
    text = text.replace(restated, "")  # the pack restates none of its examples
    pack.write_text(
        text.replace("cover_ac: 7\n", "cover_ac: 7\n        miss_chance: 35\n")
    )
    code, _, err = _run(folder, "accept")
    assert code == EXIT_OK, err
    accepted = (pack.parent / "accepted.yaml").read_text("utf-8")
    assert accepted.count("- rule: ") == 1, accepted
    assert accepted.count("- name: ") >= 2, accepted  # under the one rule
    assert "expect: {ac_bonus: 7}" in accepted and "miss_chance: 35," in accepted
    assert '"' not in accepted and "{'" not in accepted, accepted
    assert _run(folder, "validate")[0] == EXIT_OK


_ANSWERS = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**12), 10**12)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.from_regex(r"[a-z][a-z_]{0,6}", fullmatch=True), inner, max_size=3
        )
    ),
    max_leaves=8,
)


@settings(
    max_examples=100,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(_ANSWERS)
def test_an_answer_is_written_as_plain_yaml_that_reads_back(answer: object) -> None:
    """Numbers stay numbers (a float is never written as a quoted text), keys
    are plain, and the text reads back as the very answer."""
    text = flow(answer)
    assert load_text(f"v: {text}\n".encode(), "<v>").data == {"v": answer}
    if isinstance(answer, float):
        assert not text.startswith('"')


def test_a_stale_check_names_the_files_once() -> None:
    """Rules gone since the build (a check not given their folder, before the
    manifest recorded folders): one error each, the stale files said once."""
    from rulesc.output.staleness import stale

    old = {"rules": {f"pack.rule_{n}": {"fingerprint": "x"} for n in range(5)}}
    fresh = {f"docs/f{n}.md": b"new" for n in range(9)}
    on_disk = {**{p: b"old" for p in fresh}, "manifest.json": json.dumps(old).encode()}
    fresh["manifest.json"] = b"{}"
    problems = stale("generated", (), fresh, on_disk)
    said = [d.message for d in problems]
    assert len(said) == 6 and sum("generated/docs/f0.md" in m for m in said) == 1
    assert said[-1] == (
        "generated/ is stale in 10 files: generated/docs/f0.md, generated/docs/f1.md, "
        "generated/docs/f2.md, generated/docs/f3.md, generated/docs/f4.md, "
        "generated/docs/f5.md and 4 more"
    )
