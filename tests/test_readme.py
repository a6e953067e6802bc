"""The README is a test: its commands run, its Python blocks run, and what they
say they print or answer is what they print or answer."""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
BLOCK = re.compile(r"^```(\w*)\n(.*?)^```$", re.M | re.S)
BLOCKS = [
    (m.group(1), m.group(2), README[: m.start()].count("\n") + 1)
    for m in BLOCK.finditer(README)
]


def _env() -> dict[str, str]:
    """The environment of a shell after ``make build``: no PYTHONPATH (the venv
    finds generated/ through the .pth file the build writes)."""
    env = dict(os.environ, NO_COLOR="1")
    env.pop("FORCE_COLOR", None)
    env.pop("PYTHONPATH", None)
    return env


def _rulesc(words: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rulesc", *words],
        cwd=ROOT,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )


def _sh_commands() -> list[tuple[int, list[str]]]:
    """The rulesc lines of the sh blocks (make is what CI itself runs)."""
    found = []
    for lang, body, line in BLOCKS:
        if lang != "sh":
            continue
        for offset, text in enumerate(body.splitlines()):
            words = text.split("#")[0].split()
            if words and words[0].endswith("bin/rulesc"):
                found.append((line + 1 + offset, words[1:]))
    return found


def _shown_runs() -> list[tuple[int, list[str], list[str]]]:
    """``$ rulesc ...`` lines of the output blocks, with the output shown after them.

    Blocks that show errors are about rules with a mistake in them; they are left
    to the error tests (tests/test_error_output.py)."""
    found = []
    for lang, body, line in BLOCKS:
        if lang or "error:" in body or "$ rulesc" not in body:
            continue
        current: tuple[int, list[str], list[str]] | None = None
        for offset, text in enumerate(body.splitlines()):
            if text.startswith("$ rulesc "):
                current = (line + 1 + offset, text[2:].split("#")[0].split()[1:], [])
                found.append(current)
            elif current is not None:
                current[2].append(text)
    return found


@pytest.fixture(scope="module")
def sh_done() -> None:
    """The README's own set-up commands, run first (the cookbook build)."""
    for line, words in _sh_commands():
        done = _rulesc(words)
        assert done.returncode == 0, f"README.md:{line}: {done.stderr}"


@pytest.mark.parametrize(("line", "words"), _sh_commands(), ids=lambda v: str(v))
def test_sh_commands_run(line: int, words: list[str]) -> None:
    done = _rulesc(words)
    assert done.returncode == 0, (
        f"README.md:{line}: rulesc {' '.join(words)}\n{done.stderr}"
    )


@pytest.mark.parametrize(
    ("line", "words", "shown"), _shown_runs(), ids=lambda v: str(v)
)
def test_shown_runs_print_what_the_readme_shows(
    line: int, words: list[str], shown: list[str]
) -> None:
    done = _rulesc(words)
    assert done.returncode == 0, f"README.md:{line}: {done.stderr}"
    if words[0] in ("diff", "accept"):
        return  # it shows an edit of the work tree; run on a clean one it has none
    printed = [text.rstrip() for text in done.stdout.splitlines()]
    for text in shown:
        if "..." in text or not text.strip():
            continue  # the README shortens long output with ...
        assert text.rstrip() in printed, f"README.md:{line}: not printed: {text!r}"


def _expected(comment: str) -> tuple[bool, object]:
    """The literal a ``# comment`` starts with (``# 4: why``), if it starts with one."""
    text = comment.strip()
    for end in range(len(text), 0, -1):
        try:
            return True, ast.literal_eval(text[:end].strip())
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            continue
    return False, None


_CHECK = """
import ast, sys
source = sys.stdin.read()
expected = {expected!r}
env = {{}}
for node in ast.parse(source).body:
    code = compile(ast.Module([node], []), "README", "exec")
    where = (node.lineno, node.col_offset)
    if isinstance(node, ast.Expr) and where in expected:
        value = eval(compile(ast.Expression(node.value), "README", "eval"), env)
        want = expected[where]
        assert value == want, f"line {{node.lineno}}: {{value!r}} != {{want!r}}"
    else:
        exec(code, env)
print("ok", len(expected))
"""


@pytest.mark.usefixtures("sh_done")
@pytest.mark.parametrize(
    ("line", "body"),
    [(line, body) for lang, body, line in BLOCKS if lang == "python"],
    ids=lambda v: str(v),
)
def test_python_blocks_answer_what_they_say(line: int, body: str) -> None:
    expected: dict[int, object] = {}
    lines = body.splitlines()
    for number, text in enumerate(lines, start=1):
        code, hash_, comment = text.partition("  #")
        if hash_ and code.strip() and not code.lstrip().startswith(("import", "from")):
            ok, value = _expected(comment)
            if ok:
                expected[number] = value
    # Statements sharing a line with ';' are checked on the last one only.
    tree = ast.parse(body)
    last: dict[int, ast.stmt] = {}
    for node in tree.body:
        last[node.lineno] = node
    checks = {
        (number, stmt.col_offset): value
        for number, value in expected.items()
        if isinstance(stmt := last.get(number), ast.Expr)
    }
    done = subprocess.run(
        [sys.executable, "-c", _CHECK.format(expected=checks)],
        input=body,
        cwd=ROOT,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, f"README.md:{line}: {done.stderr}"
    assert done.stdout.split() == ["ok", str(len(checks))]
    assert checks, f"README.md:{line}: the block states no answer to check"


@pytest.fixture(scope="module")
def js_app(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project of its own that ran ``npm install ./generated/js``, as the README says."""
    from .js_node import missing

    npm = shutil.which("npm")
    if npm is None or shutil.which("node") is None:
        missing("Node.js (node and npm)")
    app = tmp_path_factory.mktemp("js-app")
    (app / "package.json").write_text(
        '{"name": "app", "private": true, "type": "module"}'
    )
    done = subprocess.run(
        [
            npm,
            "install",
            "--offline",
            "--no-audit",
            "--no-fund",
            str(ROOT / "generated" / "js"),
        ],
        cwd=app,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return app


@pytest.mark.parametrize(
    ("line", "body"),
    [(line, body) for lang, body, line in BLOCKS if lang == "js"],
    ids=lambda v: str(v),
)
def test_js_blocks_answer_what_they_say(line: int, body: str, js_app: Path) -> None:
    """Each ``expression;  // value`` line of a js block answers that value."""
    done = subprocess.run(
        ["node", str(ROOT / "tests" / "js" / "readme_check.mjs")],
        input=body,
        cwd=js_app,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, f"README.md:{line}: {done.stderr}"
    ok, checked, stated = done.stdout.split()
    assert ok == "ok" and checked == stated, done.stdout
    assert int(checked) > 0, f"README.md:{line}: the block states no answer to check"


def test_the_readme_has_a_js_block() -> None:
    assert any(lang == "js" for lang, _, _ in BLOCKS)
