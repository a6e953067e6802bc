"""The workbench's subcommands: their arguments, and running one.

Only ``argparse`` is imported here: ``rulesc`` builds its parser on every run,
and a command's own module (and whatever it needs) is imported when it runs.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from .usage import UsageError, number_option

EXIT_USAGE = 2


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
    *,
    common: argparse.ArgumentParser,
    build: argparse.ArgumentParser,
) -> None:
    """Add roll, explain, simulate and diff to ``sub``, and --watch to ``build``."""
    cache = argparse.ArgumentParser(add_help=False)
    cache.add_argument(
        "--no-cache",
        action="store_true",
        help="build the rules afresh instead of reusing the build cache",
    )
    roll = sub.add_parser(
        "roll",
        parents=[common],
        help="roll a dice expression (3d6, 2d6x10, GURPS 3d-1, d20, 4d6kh3, 6d6>=5)",
        description="Roll a dice expression of the rules' notation, or a dice rule "
        "named SYSTEM.RULE; --stats prints its range, mean and exact distribution.",
    )
    roll.add_argument(
        "expr",
        metavar="EXPR",
        help="e.g. 3d6, 2d6x10, d20+2, d%%, 4dF, 4d6kh3, 1d6!, 6d6>=5",
    )
    roll.add_argument(
        "--seed", type=number_option("--seed"), help="seed the dice, to repeat a roll"
    )
    roll.add_argument(
        "--stats",
        action="store_true",
        help="print the range, mean and exact distribution instead of rolling",
    )
    roll.add_argument(
        "--depth",
        type=number_option("--depth"),
        default=10,
        help="with --stats, follow each explosion (!) this many dice deep; "
        "the rest is reported as a tail (default 10)",
    )
    roll.set_defaults(workbench="roll")

    explain = sub.add_parser(
        "explain",
        parents=[common, cache],
        help="answer a rule for some inputs and show how the answer was reached",
        description="Evaluate SYSTEM.RULE for the given inputs and show how: the "
        "table row, the formula's steps, the decision's cases, and the rulings, "
        "each with the rules file and line it came from. Inputs are values in "
        "parameter order (1/2, 3, true) or name=value pairs.",
    )
    explain.add_argument("rule", metavar="SYSTEM.RULE")
    explain.add_argument(
        "inputs", nargs="*", metavar="INPUT", help="a value, or name=value"
    )
    explain.add_argument(
        "--seed",
        type=number_option("--seed"),
        help="seed the dice of a rule that rolls them",
    )
    explain.add_argument(
        "--dice",
        metavar="N,N,...",
        help="scripted die results for a rule that rolls dice (as worked examples give)",
    )
    explain.set_defaults(workbench="explain")

    simulate = sub.add_parser(
        "simulate",
        parents=[common, cache],
        help="run a rule that rolls dice (a process, a pool...) and print what happened",
        description="Run SYSTEM.RULE, a rule that rolls dice, with its inputs as "
        "options (--level High --exposed-minutes 30 ...). Options after the rule: "
        "--seed N, --runs N (a summary of N runs), --json; "
        "'rulesc simulate SYSTEM.RULE --help' lists the rule's own options.",
    )
    simulate.add_argument("rule", metavar="SYSTEM.RULE")
    simulate.add_argument(
        "options",
        nargs=argparse.REMAINDER,
        metavar="OPTION",
        help="the rule's inputs as --name value, and --seed, --runs, --json",
    )
    simulate.set_defaults(workbench="simulate")

    diff = sub.add_parser(
        "diff",
        parents=[common, cache],
        help="what changed in behaviour between a git revision and the work tree",
        description="Build the rules of a git revision and of the work tree (both "
        "with this rulesc) and report, rule by rule, the figures that changed and "
        "the worked examples and sample inputs whose answers changed.",
    )
    diff.add_argument(
        "--base",
        metavar="REV",
        help="the git revision to compare with (default: HEAD); not with --house",
    )
    diff.add_argument(
        "--house",
        metavar="SYSTEM",
        help="compare the house rules SYSTEM (a system that extends another) with "
        "the system it extends, instead of with a git revision",
    )
    diff.add_argument(
        "--exit-code",
        action="store_true",
        help="exit 1 when any rule's behaviour changed (as git diff --exit-code)",
    )
    diff.set_defaults(workbench="diff")

    accept = sub.add_parser(
        "accept",
        parents=[common, cache],
        help="after an intended change, rewrite the expect of every worked example "
        "whose answer changed",
        description="Run every worked example; where an answer changed, rewrite "
        "the example's expect in its rules file, in place (comments, quoting and "
        "layout kept), and print the diff. Examples marked from_source, and those "
        "whose call now raises or no longer does, are left for a person.",
    )
    accept.add_argument(
        "--dry-run", action="store_true", help="print the diff, change nothing"
    )
    accept.set_defaults(workbench="accept")

    build.add_argument(
        "--watch",
        dest="workbench",
        action="store_const",
        const="watch",
        help="rebuild on every save to the rules folder, printing errors as they appear",
    )
    # For tests: stop after this many builds, and poll this often (seconds).
    build.add_argument("--max-builds", type=int, help=argparse.SUPPRESS)
    build.add_argument("--poll", type=float, default=0.4, help=argparse.SUPPRESS)


def dispatch(args: argparse.Namespace) -> int:
    """Run the workbench command ``args.workbench``; its exit code."""
    name = str(args.workbench)
    house = name == "diff" and getattr(args, "house", None)  # against its base
    module = importlib.import_module(f"{__package__}.{'diff_house' if house else name}")
    try:
        code: int = module.run(args)
    except BrokenPipeError:  # rulesc explain ... | head: the reader has had enough
        import os

        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except UsageError as exc:
        command = "build --watch" if name == "watch" else name
        print(f"rulesc {command}: error: {_shown(exc.message)}", file=sys.stderr)
        if exc.hint:
            print(f"  hint: {_shown(exc.hint)}", file=sys.stderr)
        return EXIT_USAGE
    return code


def _shown(text: str) -> str:
    """A usage error's text as printed: a long value it quotes is cut, and a
    character a terminal would act on is shown as an escape."""
    from ..common.diagnostics import shorten
    from ..common.visible import visible

    return "\n".join(visible(shorten(line)) for line in text.split("\n"))
