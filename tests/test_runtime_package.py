"""The generated runtime stands alone: no compiler libraries, installable by itself."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from .conftest import GENERATED, ROOT

HEAVY = ("jinja2", "jsonschema", "ruamel", "rulesc", "compiler", "referencing")


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


def _listing(folder: Path) -> list[str]:
    return sorted(
        p.relative_to(folder).as_posix()
        for p in folder.rglob("*")
        if "__pycache__" not in p.parts
    )


def _settings() -> dict[str, str]:
    from ruamel.yaml import YAML

    loaded = YAML(typ="safe").load(ROOT / "rules" / "package.yaml")
    assert isinstance(loaded, dict)
    return {str(k): str(v) for k, v in loaded.items()}


def test_installing_generated_leaves_nothing_and_names_come_from_settings(
    tmp_path: Path,
) -> None:
    """pip install ./generated, as the Python runtime guide says, into an environment of its
    own: it writes nothing into generated/, after which rulesc check passes;
    the distribution's name, version, licence and readme are package.yaml's."""
    before = _listing(GENERATED)
    target = tmp_path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "--no-build-isolation",  # offline: the dev extra has flit_core
            "--no-compile",
            "--quiet",
            "--target",
            str(target),
            str(GENERATED),
        ],
        check=True,
        capture_output=True,
    )
    assert _listing(GENERATED) == before
    checked = subprocess.run(
        [sys.executable, "-m", "rulesc", "check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    settings = _settings()
    [info] = target.glob("*.dist-info")
    assert info.name == (
        f"{settings['distribution'].replace('-', '_')}-{settings['version']}.dist-info"
    )
    meta = (info / "METADATA").read_text(encoding="utf-8")
    assert f"Name: {settings['distribution']}\n" in meta
    assert f"Version: {settings['version']}\n" in meta
    assert f"License-Expression: {settings['licence']}\n" in meta
    assert "Description-Content-Type: text/markdown" in meta
    assert "License-File: LICENSE\n" in meta
    shown = subprocess.run(
        [sys.executable, "-m", "pip", "show", settings["distribution"]],
        env={**os.environ, "PYTHONPATH": str(target)},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    assert f"Version: {settings['version']}" in shown
    assert f"License-Expression: {settings['licence']}" in shown
    licence = (info / "licenses" / "LICENSE").read_text(encoding="utf-8")
    assert licence == (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert licence.startswith(f"{settings['licence']} License\n")
    assert f"Copyright (c) {settings['copyright']}\n" in licence
    assert "pip install ./generated" in meta  # the readme: no registry install
    stem = info.name.removesuffix(".dist-info")
    assert f"pip install dist/{stem}-py3-none-any.whl" in meta  # as pip wheel names it
    assert f"pip install {settings['distribution']}" not in meta
    assert "Requires-Dist" not in meta
    top = {p.name for p in target.iterdir()} - {info.name, "__pycache__"}
    assert top == {"rulebook"}  # imported as rulebook, whatever it is called
    assert {"__init__.py", "d20_scifi.py", "dice.py", "py.typed"} <= {
        p.name for p in (target / "rulebook").iterdir()
    }
    version = subprocess.run(
        [sys.executable, "-I", "-c", "import rulebook; print(rulebook.__version__)"],
        cwd=target,
        capture_output=True,
        text=True,
        check=True,
    )
    assert version.stdout.strip() == settings["version"]


def test_npm_package_is_named_by_the_settings() -> None:
    settings = _settings()
    package = json.loads((GENERATED / "js" / "package.json").read_text("utf-8"))
    assert package["name"] == settings["npm"]
    assert package["version"] == settings["version"]
    assert package["license"] == settings["licence"]
    readme = (GENERATED / "js" / "README.md").read_text("utf-8")
    assert f"npm install {settings['npm']}" not in readme  # not published
    assert "npm install ./generated/js" in readme
    assert (GENERATED / "js" / "LICENSE").read_bytes() == (
        ROOT / "LICENSE"
    ).read_bytes()
    assert f'from "{settings["npm"]}/d20_scifi"' in readme
