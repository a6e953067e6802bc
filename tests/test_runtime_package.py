"""The generated runtime stands alone: no compiler libraries, installable by itself."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from .conftest import GENERATED

HEAVY = ("jinja2", "jsonschema", "ruamel", "compiler", "referencing")


def test_import_loads_no_build_libraries() -> None:
    probe = (
        f"import sys; sys.path.insert(0, {str(GENERATED)!r})\n"
        "import rulebook.d20_scifi\n"
        f"heavy = {HEAVY!r}\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in heavy)\n"
        "print(','.join(loaded))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip() == ""


def test_generated_folder_builds_a_wheel_with_no_dependencies(tmp_path: Path) -> None:
    source = tmp_path / "generated"  # a copy: setuptools builds in the tree
    shutil.copytree(GENERATED, source)
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "--quiet",
            "--wheel-dir",
            str(tmp_path),
            str(source),
        ],
        check=True,
        capture_output=True,
    )
    [wheel] = tmp_path.glob("rulebook-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        metadata = next(n for n in names if n.endswith("METADATA"))
        meta = archive.read(metadata).decode()
    assert {
        "rulebook/__init__.py",
        "rulebook/d20_scifi.py",
        "rulebook/dice.py",
    } <= names
    assert "rulebook/py.typed" in names
    assert "Requires-Dist" not in meta
