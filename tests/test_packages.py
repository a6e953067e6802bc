"""The compiler's distribution: installed, it is imported as rulesc, never as compiler."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

from .conftest import ROOT


def test_the_wheel_holds_rulesc_and_no_top_level_compiler(tmp_path: Path) -> None:
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",  # offline: the dev extra has setuptools
            "--quiet",
            "--wheel-dir",
            str(tmp_path),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
    )
    [wheel] = tmp_path.glob("rulebook_compiler-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        points = next(n for n in names if n.endswith("entry_points.txt"))
        entry_points = archive.read(points).decode()
    top = {n.split("/")[0] for n in names}
    assert {t for t in top if not t.endswith(".dist-info")} == {"rulesc"}
    assert "rulesc/cli.py" in names
    assert "rulesc/schema/rules.schema.json" in names  # schema/, mapped
    assert "rulesc/schema/package.schema.json" in names
    assert "rulesc/kinds/table/schema.json" in names
    assert "rulesc/runtime_js/dice.js" in names
    assert "rulesc = rulesc.cli:main" in entry_points
    [licence] = [n for n in names if n.endswith(".dist-info/licenses/LICENSE")]
    with zipfile.ZipFile(wheel) as archive:
        assert archive.read(licence) == (ROOT / "LICENSE").read_bytes()


def test_installed_the_compiler_is_rulesc(tmp_path: Path) -> None:
    probe = (
        "import importlib.util as u, rulesc, rulesc.cli\n"
        "print(u.find_spec('compiler') is None, rulesc.cli.__name__)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=tmp_path,  # not the checkout, where compiler/ is a folder beside
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.split() == ["True", "rulesc.cli"]
