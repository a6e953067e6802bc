"""Reference: the Markdown target's hooks: forms and odds from the loaded runtime, the pages, the charts, the shared pages."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import TYPE_CHECKING

from ...common.diagnostics import Diagnostic
from ...front.model import System
from ..javascript.files import TARGET_NAME as JAVASCRIPT
from ..python.files import modules
from ..render import render
from ..target import Share, Work
from .charts import for_pages, relocated
from .contract import contract_view, label_candidates, module_entry
from .files import (
    CONTRACT_PAGE,
    INDEX_PAGE,
    NAV_PAGE,
    TARGET_NAME,
    overview_page,
    rule_page,
)
from .forms import system_forms
from .house_docs import mark_cells
from .odds_pages import rules_odds
from .pages import (
    index_entry,
    index_view,
    nav_entry,
    nav_view,
    overview_view,
    rule_page_view,
)

if TYPE_CHECKING:
    from ...common.parts import Shares


def observe(system: System, module: ModuleType, work: Work) -> list[Diagnostic]:
    """A system's try-it forms and its rules' odds (with their charts), read
    from its loaded module; the errors of odds too costly to work out."""
    kept = work.keep(TARGET_NAME)
    ported = work.keep(JAVASCRIPT).get("ported", {})
    kept.setdefault("forms", {})[system.id] = system_forms(
        system, module, ported.get(system.id)
    )
    odds, spent = rules_odds(system, module)
    kept.setdefault("odds", {})[system.id] = odds
    kept.setdefault("drawn", {})[system.id] = {  # the charts of the rules' odds
        name: svg
        for view in odds.values()
        if view.get("chart")
        for name, svg in view["chart"]["svgs"].items()
    }
    return list(spent)


def pages(work: Work) -> dict[str, str]:
    """Each system's overview and its rules' pages."""
    kept = work.keep(TARGET_NAME)
    forms, odds = kept.get("forms", {}), kept.get("odds", {})
    files: dict[str, str] = {}
    by_id = {s.id: s for s in work.built}
    for system in work.built:
        base = by_id.get(system.house.base or "") if system.house else None
        files[overview_page(system.id)] = render(
            "system.md.j2", overview_view(system, base)
        )
        for rule in system.rules:
            view = rule_page_view(
                system,
                rule,
                work.results[system.id],
                forms.get(system.id, {}).get(rule.id),
                odds.get(system.id, {}).get(rule.id),
            )
            files[rule_page(system.id, rule.id)] = relocated(
                render("rule.md.j2", {"rule": view}), "../"
            )
    _mark_house_rules(work.built, files)
    return files


def _mark_house_rules(systems: Sequence[System], files: dict[str, str]) -> None:
    """Mark, on the page of each rule of a system of house rules that the system
    it extends has too, every table cell that differs from the book's (the page
    of the rule there): a changed figure, and a chance in the odds it changes."""
    by_id = {s.id: s for s in systems}
    for system in systems:
        house = system.house
        base = by_id.get(house.base) if house and house.base else None
        if house is None or base is None:
            continue
        for rule_id in sorted({r.id for r in system.rules} - set(house.rules)):
            page, book = rule_page(system.id, rule_id), rule_page(base.id, rule_id)
            if page in files and book in files:
                files[page] = mark_cells(files[page], files[book])


def share(system: System, own: Mapping[str, str], work: Work) -> Share:
    """The charts a system's pages draw, and its entries on the index, the
    navigation and the contract page."""
    pages = {p: t for p, t in own.items() if p.startswith("docs/")}
    drawn = work.keep(TARGET_NAME).get("drawn", {}).get(system.id)
    found = for_pages(pages, drawn)
    view = {
        "index": index_entry(system),
        "nav": nav_entry(system),
        "contract": module_entry(system, modules(work.files)),
        "labels": label_candidates(system),
    }
    return Share(own={f"docs/{name}": svg for name, svg in found.items()}, view=view)


def together(shares: Sequence[Shares], work: Work) -> dict[str, str]:
    """The index, the navigation, the contract page, and the charts they draw."""
    files = {
        INDEX_PAGE: render("index.md.j2", index_view(shares)),
        NAV_PAGE: render("SUMMARY.md.j2", nav_view(shares)),
        CONTRACT_PAGE: render(
            "contract.md.j2", contract_view(shares, modules(work.files))
        ),
    }
    for name, svg in for_pages(files).items():
        files[f"docs/{name}"] = svg
    return files
