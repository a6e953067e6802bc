"""The "try it" forms in a real browser: each rule page's form answers with the
JavaScript runtime in the page, as the Python runtime answers.

The cover form, set to every label, gives Python's rows; the radiation
simulation, seeded, gives Python's events for ``random.Random(seed)``; every
form, filled with each of its rule's worked examples (where a form can give the
example's inputs), gives the answer Python gives to the example's own call, or
refuses with the same message (in the JavaScript names). Nothing is asked of
the network once a form is ready, and no page logs an error.
"""

from __future__ import annotations

import importlib
import json
import random
from html.parser import HTMLParser
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulesc.front.model import (
    Rule,
    System,
)
from rulesc.kinds.registry import kind_of
from rulesc.pipeline import Outputs

from ..form_fill import Filled, fill
from ..js_node import js_message, ported
from .browser import SCREENSHOTS, Watched

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Locator, Page

HOLDER = "div.rulebook-try"


class Form:
    """A rule page's form, opened in the browser and ready."""

    def __init__(self, watched: Watched, base_url: str, rule: str) -> None:
        system, rule_id = rule.split(".")
        self.watched = watched
        self.page: Page = watched.open(f"{base_url}{system}/{rule_id}.html")
        self.page.wait_for_selector(f"{HOLDER}[data-rb-ready]", state="attached")
        self.root: Locator = self.page.locator("form.rb-try")
        raw = self.page.locator(HOLDER).get_attribute("data-form")
        assert raw is not None
        self.data: dict[str, Any] = json.loads(raw)
        assert self.data["rule"] == rule
        self.requests: list[str] = []
        # The browser fetches the page's icon when it likes (at times while a
        # form answers): that is the page's, not the form's asking.
        icons: list[str] = self.page.evaluate(
            "Array.from(document.querySelectorAll(\"link[rel~='icon']\"), l => l.href)"
        )
        self.page.on("request", lambda r: self._asked(r.url, icons))

    def _asked(self, url: str, icons: list[str]) -> None:
        if url not in icons:
            self.requests.append(url)

    def _answers(self) -> int:
        return int(self.root.get_attribute("data-answers") or "0")

    def set(self, filled: Filled) -> None:
        for field in self.data["fields"]:
            value = filled.values[field["name"]]
            controls = self.root.locator(f"[data-field='{field['name']}']")
            kind = field["kind"]
            if kind == "choice":
                controls.select_option("" if value is None else value)
            elif kind == "bool":
                controls.set_checked(value)
            elif kind == "int" and field.get("one_of"):  # a list of the values
                controls.select_option(str(value))
            elif kind == "int":
                controls.fill(str(value))
            elif kind in ("ints", "list"):
                controls.fill(" ".join(map(str, value)))
            else:  # a mapping: "its default" (when it has one), then a list per key
                default = self.root.locator(
                    f"input[data-field='{field['name']}'][data-default]"
                )
                if default.count():
                    default.set_checked(value is None)
                if value is not None:
                    keys = self.root.locator(f"select[data-field='{field['name']}']")
                    for i, key in enumerate(field["labels"]):
                        keys.nth(i).select_option(value[key])
        if len(self.data["calls"]) > 1:
            self.root.locator("select[name='$call']").select_option(index=filled.call)
        if filled.dice is not None:
            self.dice("results", " ".join(map(str, filled.dice)))

    def dice(self, mode: str, text: str) -> None:
        self.root.locator("select[name='$dice']").select_option(mode)
        self.root.locator("input[name='$dice-value']").fill(text)

    def answer(self) -> tuple[str, str, str]:
        """Press Answer: (the state shown, the runtime's answer or refusal as
        kept "for programmers", the note under it)."""
        button = self.root.locator("button[type=submit]")
        if button.count():  # else there is nothing to give: it answered when made
            before = self._answers()
            button.click()
            self.page.wait_for_function(
                "n => Number(document.querySelector('form.rb-try')"
                ".getAttribute('data-answers')) > n",
                arg=before,
            )
        out = self.root.locator(".rb-try-out")
        return (
            out.get_attribute("data-state") or "",
            out.locator(".rb-try-raw code").text_content() or "",
            out.locator(".rb-try-note").inner_text(),
        )

    def words(self) -> str:
        """The answer (or refusal) as the reader sees it."""
        return self.root.locator(".rb-try-answer").inner_text()

    def close(self) -> None:
        assert self.requests == [], f"a form asked the network: {self.requests}"
        assert self.watched.problems == [], self.watched.problems
        self.page.close()


def _python(system: System, call: Any, rng: Any) -> dict[str, Any]:
    """Python's answer to a rule's call as the form shows it (JSON text indented
    by 2, non-ASCII as it is), or its refusal in the JavaScript names."""
    from rulesc.emit.python.calls import run_call

    module = importlib.import_module(f"rulebook.{system.id}")
    errors = importlib.import_module("rulebook.errors")
    json_module = importlib.import_module("rulebook.json")
    try:
        value = run_call(module, call, rng)
    except errors.RuleInputError as exc:
        return {"state": "refused", "text": js_message(system, str(exc))}
    return {
        "state": "answer",
        "text": json_module.dumps(value, indent=2, ensure_ascii=False),
    }


def test_the_cover_form_gives_pythons_row_for_every_label(
    base_url: str, browser: BrowserContext
) -> None:
    from rulebook import d20_scifi
    from rulebook.json import to_data

    form = Form(Watched(browser), base_url, "d20_scifi.cover")
    (field,) = form.data["fields"]
    levels = list(d20_scifi.CoverLevel)
    assert field["labels"] == [level.value for level in levels]
    for level in levels:
        form.set(Filled({"level": level.value}, 0, None))
        state, text, _ = form.answer()
        assert state == "answer", text
        assert json.loads(text) == to_data(d20_scifi.cover(level)), level
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    form.root.screenshot(path=str(SCREENSHOTS / "d20_scifi-cover-form.png"))
    form.close()


RADIATION = "d20_scifi.simulate_radiation"


def test_the_radiation_simulation_form_gives_pythons_events(
    base_url: str, browser: BrowserContext
) -> None:
    """Seeded, the simulation in the page rolls what CPython's random.Random
    rolls; with no seed it draws one, says which, and that one gives Python's."""
    from rulebook import d20_scifi
    from rulebook.json import to_data

    form = Form(Watched(browser), base_url, RADIATION)
    rolled = next(i for i, c in enumerate(form.data["calls"]) if c["rng"])
    cases: list[tuple[Any, int, int, int]] = [
        ("High", 30, 0, 7),
        ("Severe", 45, 3, 1),
        ("Minor", 10, -2, 123456789),
    ]
    for level, minutes, fort, seed in cases:
        values = {"level": level, "exposed_minutes": minutes, "fort_bonus": fort}
        form.set(Filled(values, rolled, None))
        form.dice("seed", str(seed))
        state, text, _ = form.answer()
        assert state == "answer", text
        expected = d20_scifi.simulate_radiation(
            level, minutes, fort, random.Random(seed)
        )
        assert json.loads(text) == to_data(expected), (level, minutes, fort, seed)
        assert len(json.loads(text)["events"]) > 0
    form.dice("seed", "")
    state, text, note = form.answer()
    assert state == "answer" and note.startswith("Rolled with seed "), note
    seed = int(note.removeprefix("Rolled with seed ").split(",")[0])
    level, minutes, fort, _ = cases[-1]
    expected = d20_scifi.simulate_radiation(level, minutes, fort, random.Random(seed))
    assert json.loads(text) == to_data(expected)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    form.root.screenshot(path=str(SCREENSHOTS / "d20_scifi-simulate_radiation.png"))
    form.close()


# Elements with no end tag.
VOID = frozenset(
    ("area", "br", "col", "embed", "hr", "img", "input", "link", "meta", "wbr")
)


class _Holders(HTMLParser):
    """Each form's holder in a built page, and the element it stands in."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[str] = []
        self.found: list[tuple[str, str]] = []  # (its parent's tag, its rule)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attr = dict(attrs)
        if tag == "div" and "rulebook-try" in (attr.get("class") or "").split():
            assert attr.get("data-form"), attr
            self.found.append((self.open[-1], attr.get("data-rule") or ""))
        if tag not in VOID:
            self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in self.open:
            while self.open.pop() != tag:
                pass


def test_each_rule_page_holds_its_form_as_a_block(built: Outputs, site: Path) -> None:
    """The built page of every rule in JavaScript has its form's holder, once,
    in the article and not inside a paragraph (Markdown kept it a block)."""
    for system in built.systems:
        for rule in system.rules:
            reader = _Holders()
            reader.feed((site / system.id / f"{rule.id}.html").read_text("utf-8"))
            reader.close()
            expected = (
                [("article", rule.qualified_id)]
                if rule.qualified_id in ported(system)
                else []
            )
            assert reader.found == expected, rule.qualified_id


def _own_call(rule: Rule, ex: Any) -> Any:
    """The example's own call, as the conformance tests make it."""
    module = importlib.import_module(f"rulebook.{rule.system}")
    rolls = ex.dice is not None and ex.roll is None
    return kind_of(rule).call(module, rule, dict(ex.args), rolls, ex.roll)


def test_every_form_gives_its_worked_examples_answers(
    built: Outputs, base_url: str, browser: BrowserContext
) -> None:
    from rulebook.dice import Scripted

    made, unmade, forms = 0, [], 0
    for system in built.systems:
        for rule in system.rules:
            if rule.qualified_id not in ported(system):
                continue
            forms += 1
            form = Form(Watched(browser), base_url, rule.qualified_id)
            for ex in rule.examples:
                filled = fill(form.data, ex)
                if filled is None:  # a label no choice list has
                    assert ex.raises, (rule.qualified_id, ex.name)
                    unmade.append(f"{rule.qualified_id} {ex.name}")
                    continue
                form.set(filled)
                state, text, note = form.answer()
                rng = Scripted(list(ex.dice)) if ex.dice is not None else None
                expected = _python(system, _own_call(rule, ex), rng)
                assert {"state": state, "text": text} == expected, (
                    rule.qualified_id,
                    ex.name,
                )
                assert note == "", (rule.qualified_id, ex.name, note)
                made += 1
            form.close()
    print(f"{made} worked examples made in {forms} forms; not made: {unmade}")
    assert forms >= 20 and made >= 80 and len(unmade) <= made // 20


def test_a_refusal_is_a_message_not_an_error(
    base_url: str, browser: BrowserContext
) -> None:
    """Out of its bounds, a number is refused by the runtime, in its words; a
    seed or a die result that is no number is refused by the form."""
    form = Form(Watched(browser), base_url, "d20_scifi.crawl_speed")
    form.set(Filled({"climb_bonus": 0, "occupied_limbs": 5}, 0, None))
    state, text, _ = form.answer()
    assert state == "refused"
    assert "occupiedLimbs" in text and "5" in text, text  # for programmers
    shown = form.words()
    assert "Occupied limbs must be from 0 to 4, not 5" in shown, shown
    assert "occupiedLimbs" not in shown and "occupied_limbs" not in shown, shown
    form.close()
    form = Form(Watched(browser), base_url, "edge_of_darkness.dice_pool")
    rolled = next(i for i, c in enumerate(form.data["calls"]) if c["rng"])
    form.set(Filled({"dice": 3}, rolled, None))
    for mode, text in (("seed", "seven"), ("results", "10 nine")):
        form.dice(mode, text)
        state, shown, _ = form.answer()
        assert state == "refused" and "whole number" in shown, shown
    form.dice("results", "10")  # the script runs out: the runtime's refusal
    state, shown, _ = form.answer()
    assert state == "refused" and "ran out" in shown, shown
    form.dice("results", "10 9 3 8 5")
    state, shown, note = form.answer()
    assert state == "answer" and note == "1 of the results given were not used."
    form.close()
