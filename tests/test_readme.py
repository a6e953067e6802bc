"""The README and the guides are tests: their commands run, their Python and
JavaScript blocks run, and what they say they print or answer is what they print
or answer (tests/doc_blocks.py reads them)."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .doc_blocks import (
    ALL_BLOCKS,
    GUIDES,
    README,
    ROOT,
    Block,
    sh_commands,
    shown_runs,
)


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


@pytest.fixture(scope="module")
def sh_done() -> None:
    """The documents' own set-up commands, run first (the builds the Python
    blocks import)."""
    for where, words in sh_commands():
        done = _rulesc(words)
        assert done.returncode == 0, f"{where}: {done.stderr}"


@pytest.mark.parametrize(("where", "words"), sh_commands(), ids=lambda v: str(v))
def test_sh_commands_run(where: str, words: list[str]) -> None:
    done = _rulesc(words)
    assert done.returncode == 0, f"{where}: rulesc {' '.join(words)}\n{done.stderr}"


@pytest.mark.parametrize(
    ("where", "words", "shown"), shown_runs(), ids=lambda v: str(v)
)
def test_shown_runs_print_what_the_documents_show(
    where: str, words: list[str], shown: list[str]
) -> None:
    done = _rulesc(words)
    assert done.returncode == 0, f"{where}: {done.stderr}"
    if words[0] in ("diff", "accept"):
        return  # it shows an edit of the work tree; run on a clean one it has none
    printed = [text.rstrip() for text in done.stdout.splitlines()]
    for text in shown:
        if "..." in text or not text.strip():
            continue  # a document shortens long output with ...
        assert text.rstrip() in printed, f"{where}: not printed: {text!r}"


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
blocks = {blocks!r}
env = {{}}  # one session: each block runs after the ones before it
for source, expected in blocks:
    for node in ast.parse(source).body:
        code = compile(ast.Module([node], []), "block", "exec")
        where = (node.lineno, node.col_offset)
        if isinstance(node, ast.Expr) and where in expected:
            value = eval(compile(ast.Expression(node.value), "block", "eval"), env)
            want = expected[where]
            assert value == want, f"line {{node.lineno}}: {{value!r}} != {{want!r}}"
        else:
            exec(code, env)
print("ok", sum(len(expected) for _, expected in blocks))
"""


def _of(lang: str) -> list[Block]:
    return [block for block in ALL_BLOCKS if block.lang == lang]


def _checks(body: str) -> dict[tuple[int, int], object]:
    """The answers a block states (``expression  # value``), by line and column."""
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
    return {
        (number, stmt.col_offset): value
        for number, value in expected.items()
        if isinstance(stmt := last.get(number), ast.Expr)
    }


def _session(bodies: list[str]) -> tuple[subprocess.CompletedProcess[str], int]:
    """Run ``bodies`` one after the other in one interpreter, checking the
    answers each states; the run and how many answers it checked."""
    blocks = [(body, _checks(body)) for body in bodies]
    done = subprocess.run(
        [sys.executable, "-c", _CHECK.format(blocks=blocks)],
        cwd=ROOT,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    return done, sum(len(checks) for _, checks in blocks)


@pytest.mark.usefixtures("sh_done")
@pytest.mark.parametrize("block", _of("python"), ids=lambda b: b.where)
def test_python_blocks_answer_what_they_say(block: Block) -> None:
    done, checked = _session([block.body])
    assert done.returncode == 0, f"{block.where}: {done.stderr}"
    assert done.stdout.split() == ["ok", str(checked)]
    assert checked, f"{block.where}: the block states no answer to check"


@pytest.mark.usefixtures("sh_done")
def test_the_readme_s_python_blocks_run_in_one_session() -> None:
    """Pasted into one Python session, in order, the README's blocks still
    answer what they say (the first's build/first does not shadow the next's
    rulebook)."""
    done, checked = _session([b.body for b in _of("python") if b.doc == README])
    assert done.returncode == 0, f"README.md: {done.stderr}"
    assert done.stdout.split() == ["ok", str(checked)]
    assert checked >= 2


@pytest.mark.usefixtures("sh_done")
def test_the_guide_s_blocks_of_one_build_share_a_session() -> None:
    """What writing-rules.md says: its blocks that read build/cookbook run in
    one session, one after the other."""
    guide = GUIDES / "writing-rules.md"
    bodies = [
        b.body
        for b in _of("python")
        if b.doc == guide and 'sys.path.insert(0, "build/cookbook")' in b.body
    ]
    assert len(bodies) >= 3
    done, checked = _session(bodies)
    assert done.returncode == 0, f"{guide.name}: {done.stderr}"
    assert done.stdout.split() == ["ok", str(checked)]


@pytest.fixture(scope="module")
def js_app(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project of its own that ran ``npm install ./generated/js``, as the
    JavaScript guide says."""
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


@pytest.mark.parametrize("block", _of("js"), ids=lambda b: b.where)
def test_js_blocks_answer_what_they_say(block: Block, js_app: Path) -> None:
    """Each ``expression;  // value`` line of a js block answers that value."""
    done = subprocess.run(
        ["node", str(ROOT / "tests" / "js" / "readme_check.mjs")],
        input=block.body,
        cwd=js_app,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, f"{block.where}: {done.stderr}"
    ok, checked, stated = done.stdout.split()
    assert ok == "ok" and checked == stated, done.stdout
    assert int(checked) > 0, f"{block.where}: the block states no answer to check"


def test_the_documents_have_blocks_of_each_language() -> None:
    assert {"sh", "python", "js"} <= {block.lang for block in ALL_BLOCKS}
    assert shown_runs() and sh_commands()
