"""The base ``make bench`` measures beside HEAD: a git worktree of an earlier commit.

``BENCH_BASE`` names the commit, by default 316e4ef: main as it stood when issue
26 (a rule language on one core) began, the first parent of the merge 570bdc1
that brought in its first step. Issue 26 asks that nothing be lost on the way
("`make bench` also measures a worktree of the commit this work starts from, side
by side in one run: each figure within 10% of it, or its row says why"), so
every figure of HEAD is measured again there, in the same run, in turn with it.

The worktree is made once, under ``.bench/base-<sha>`` (ignored by git), and
reused while it still holds that commit unchanged. Nothing is installed there:
its compiler runs on this venv's interpreter and libraries, with ``PYTHONPATH``
naming its folder first (so it, not HEAD's editable install, is ``compiler``),
and its runtime is its own committed ``generated/rulebook``, imported in a
worker process. Without git, or without that commit, there is no base: the
report says why and HEAD is measured all the same.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import subprocess
from pathlib import Path

from .measure import ENV, RULESC, Took, run

ROOT = Path(__file__).resolve().parents[2]
CACHE = ROOT / ".bench"
DEFAULT = "316e4ef"


@dataclasses.dataclass(frozen=True)
class Side:
    """A tree of the project whose compiler and runtime are measured."""

    label: str
    root: Path
    env: dict[str, str]  # what its rulesc runs with

    @property
    def rules(self) -> Path:
        return self.root / "rules"

    @property
    def generated(self) -> Path:
        return self.root / "generated"

    def rulesc(self, cwd: Path, *args: str) -> Took:
        return run([*RULESC, *args], cwd, self.env)

    def python_env(self, *paths: Path) -> dict[str, str]:
        """The environment of a worker process that imports from ``paths``."""
        return dict(ENV, PYTHONPATH=os.pathsep.join(str(p) for p in paths))


HEAD = Side(
    "HEAD",
    ROOT,
    dict(
        ENV,
        PYTHONPATH=os.pathsep.join([str(ROOT), *filter(None, [ENV.get("PYTHONPATH")])]),
    ),
)


def _git(cwd: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", *args], cwd=cwd, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise RuntimeError(done.stderr.strip() or f"git {args[0]} failed")
    return done.stdout.strip()


def _holds(folder: Path, sha: str) -> bool:
    """Whether ``folder`` is a worktree at ``sha`` with no tracked file changed."""
    if not (folder / ".git").exists():
        return False
    try:
        at = _git(folder, "rev-parse", "HEAD")
        changed = _git(folder, "status", "--porcelain", "--untracked-files=no")
    except RuntimeError:
        return False
    return at == sha and not changed


def _make(folder: Path, sha: str) -> None:
    if folder.exists():
        try:
            _git(ROOT, "worktree", "remove", "--force", str(folder))
        except RuntimeError:
            shutil.rmtree(folder)
    _git(ROOT, "worktree", "prune")
    folder.parent.mkdir(exist_ok=True)
    _git(ROOT, "worktree", "add", "--detach", str(folder), sha)


def base() -> Side | str:
    """The base's side, or why there is none."""
    name = os.environ.get("BENCH_BASE", DEFAULT)
    if shutil.which("git") is None:
        return "git is not installed"
    try:
        sha = _git(ROOT, "rev-parse", "--verify", "--quiet", f"{name}^{{commit}}")
    except (RuntimeError, OSError) as exc:
        return f"`{name}` (BENCH_BASE) is not a commit here ({exc})"
    folder = CACHE / f"base-{sha[:12]}"
    if not _holds(folder, sha):
        try:
            _make(folder, sha)
        except (RuntimeError, OSError) as exc:
            return f"no worktree of {sha[:7]} could be made ({exc})"
    paths = [str(folder), *filter(None, [ENV.get("PYTHONPATH")])]
    env = dict(ENV, PYTHONPATH=os.pathsep.join(paths))
    return Side(f"base {sha[:7]}", folder, env)
