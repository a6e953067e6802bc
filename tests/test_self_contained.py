"""The project stands alone: nothing it ships points outside the repository, the
runtime contract is a page the build writes from the code, and source documents
are named by file name, checked against a folder given with --sources."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from rulesc.cli import EXIT_OK, EXIT_RULES, main

from .conftest import ROOT, copy_rules

CONTRACT = (ROOT / "generated" / "docs" / "contract.md").read_text()


def test_nothing_shipped_points_outside_the_repository() -> None:
    shipped = [
        ROOT / "README.md",
        *(ROOT / "docsite" / "guides").rglob("*"),
        *(ROOT / "schema").rglob("*"),
        *(ROOT / "generated").rglob("*"),
    ]
    for path in shipped:
        if path.is_file():
            assert "../shared" not in path.read_text(errors="replace"), path


@pytest.mark.parametrize(
    "module", ["dice", "errors", "d20_scifi", "gurps", "edge_of_darkness"]
)
def test_the_contract_names_every_public_name(module: str) -> None:
    mod = importlib.import_module(f"rulebook.{module}")
    names = getattr(mod, "__all__", None) or [
        n for n in vars(mod) if not n.startswith("_")
    ]
    heading = re.search(rf"^## .*`rulebook\.{module}`$", CONTRACT, re.M)
    assert heading, module
    section = CONTRACT[heading.end() :].split("\n## ", 1)[0]
    for name in names:
        assert re.search(rf"`{re.escape(name)}\b", section), (module, name)


def test_the_readme_links_the_contract() -> None:
    assert "generated/docs/contract.md" in (ROOT / "README.md").read_text()
    assert "(contract.md)" in (ROOT / "generated" / "docs" / "index.md").read_text()


def test_sources_are_checked_by_file_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = tmp_path / "rules"
    copy_rules(rules)
    sources = tmp_path / "sources"
    sources.mkdir()
    args = ["validate", "--rules", str(rules), "--sources", str(sources)]
    assert main(args) == EXIT_RULES
    err = capsys.readouterr().err.splitlines()
    errors = [line for line in err if ": error: " in line]
    assert len(errors) == 3
    assert errors[0] == (
        f"rules/d20_scifi/system.yaml:9:9: error: no source document "
        f"'000_67cc3971ad3938cc.txt' in {sources.as_posix()}/"
    )
    for system in ("d20_scifi", "gurps", "edge_of_darkness"):
        meta = (rules / system / "system.yaml").read_text()
        name = re.search(r"file: (\S+)", meta)
        assert name
        (sources / name.group(1)).write_text("a source\n")
    assert main(args) == EXIT_OK


def test_the_rules_name_the_documents_beside_the_repository() -> None:
    """Where the source documents are beside the repository (every working
    session and CI), each system's source.file is one of them."""
    sources = ROOT.parent / "shared" / "source"
    for meta in (ROOT / "rules").glob("*/system.yaml"):
        name = re.search(r"^  file: (\S+)$", meta.read_text(), re.M)
        assert name and "/" not in name.group(1), meta  # a file name, not a path
    if sources.is_dir():  # beside the repository in every session and in CI
        args = ["validate", "--rules", str(ROOT / "rules"), "--sources", str(sources)]
        assert main(args) == 0
