"""A budget per build, in work, not seconds (issue 24, deliver 4).

Each face had its own limit and each expression its own, but nothing bounded a game: a
template within every limit, repeated over 5,000 cards, ran for hours; one heavy check over a
5,000-row CSV for half an hour; and the wall clock made one project build on a quiet machine
and fail on a busy one. Now a build spends one budget (``limits.MAX_BUILD_WORK`` units of the
work meter, counted in the build's ``context.Budget``) that faces, labels, ``checks:`` and
``verify:`` all draw from, with caps on the primitives of a face, a component and a build.
When it runs out, one line names the template element or check that spent the most.

Every assertion is on counts (units, runs, primitives), never on seconds. The in-process
reproductions lower the budget so they are quick (the rule is the same at any figure); the
child-process ones run at the real figures under a 500 MB address-space limit.
"""
from __future__ import annotations

import math
import re
import time
from pathlib import Path

import pytest

from generator.core import context
from generator.core.errors import DataError
from generator.data import load_game
from generator.expressions import (
    MAX_BUILD_WORK,
    MAX_COMPONENT_PRIMITIVES,
    MAX_FACE_PRIMITIVES,
    MAX_WORK,
    BudgetSpent,
    evaluate,
    limits,
    work_budget,
)
from generator.faces import template
from generator.frontends import app
from generator.orchestration import drawing
from generator.orchestration.build import build_kit
from generator.orchestration.composition import check_composition
from generator.orchestration.options import BuildOptions
from generator.rules import declarative
from tests.hostile.limits import one_error_line, pnp_limited

BUILT_IN = ["monster-day", "movement-game", "moving-day", "moving-day-boxes", "moving-target"]
# ~8,900 units a repetition: a condition that makes and reads a 1,490-character string
HEAVY_STEP = "{{ range(400)|map('string')|join(',')|length > 0 }}"
# ~30,500 units a row (a list of 1,000 strings made and sorted); the real figure's is 2 x 10
HEAVY_CHECK = "{{ range(1000)|map('string')|list|sort|length > 0 }}"


def heavy_face(repetitions: int) -> str:
    return (f'elements:\n  - each: "{{{{ range({repetitions}) }}}}"\n    do:\n'
            f'      - if: "{HEAVY_STEP}"\n        do: []\n')


def starter(tmp_path: Path, cards: int = 18, face: str | None = None, csv: bool = False,
            tail: str = "", label: str | None = None) -> Path:
    """``pnp init``'s project with ``cards`` cards (written in game.yaml, or from a CSV file),
    its card face replaced by ``face``, its verify list by ``tail`` (a ``checks:`` or
    ``verify:`` of the test's own) and its deck's label by ``label``."""
    folder = tmp_path / "p"
    app.init(folder)
    if face is not None:
        (folder / "faces" / "card.yaml").write_text(face, encoding="utf-8")
    data = (folder / "game.yaml").read_text(encoding="utf-8")
    start, end = data.index("  cards:\n"), data.index("# Column types")
    if csv:
        rows = ["name,suit,value"] + [f"C{i},sun,1" for i in range(cards)]
        (folder / "cards.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
        table = "  cards: {file: cards.csv}\n\n"
    else:
        table = "  cards:\n" + "".join(f"    - {{name: C{i}, suit: sun, value: 1}}\n"
                                       for i in range(cards)) + "\n"
    data = data[:start] + table + data[end:]
    data = data[:data.index("verify:")] + tail
    if label is not None:
        data = data.replace('label: "{{ item.name }}"', f'label: "{label}"')
    (folder / "game.yaml").write_text(data, encoding="utf-8")
    return folder


def spend(game_id: str, **options: object) -> context.Budget:
    """What building ``game_id``'s kit spends: load, verify, every face (the PDF writing that
    follows draws what these made and evaluates nothing). Raises what the build raises."""
    opts = BuildOptions(**options)  # type: ignore[arg-type]
    with context.building() as ctx:
        game = load_game(game_id)
        check_composition(game, opts.force)
        build_kit(game, opts)
    assert ctx.budget is not None
    return ctx.budget


def spent_out(game_id: str) -> tuple[BudgetSpent, context.Budget]:
    """The error of a build that runs out, and its budget's account as it ran out."""
    with context.building() as ctx, pytest.raises(BudgetSpent) as caught:
        game = load_game(game_id)
        check_composition(game, False)
        build_kit(game, BuildOptions())
    assert ctx.budget is not None
    return caught.value, ctx.budget


def top(budget: context.Budget) -> tuple[context.Spender | None, int, int]:
    who, (units, runs) = max(budget.by.items(), key=lambda entry: entry[1][0])
    return who, units, runs


def line_of(file: Path, text: str) -> int:
    return next(n for n, line in enumerate(file.read_text().splitlines(), 1) if text in line)


# -- the built-in kits: a wide margin ----------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("game", [*BUILT_IN, "starter"])
def test_every_built_in_kit_spends_under_a_tenth_of_the_budget(game, tmp_path):
    """Measured: the heaviest (movement-game) ~800,000 units, 4% of the budget; the starter
    ~20,000. The rules pages' sections are the largest spender of every built-in kit."""
    if game == "starter":
        app.init(tmp_path / "starter")  # as `pnp init` writes it
        game = str(tmp_path / "starter")
    budget = spend(game)
    assert 0 < budget.spent < MAX_BUILD_WORK / 10
    assert budget.primitives < limits.MAX_BUILD_PRIMITIVES / 10
    assert sum(units for units, _ in budget.by.values()) == budget.spent


@pytest.mark.slow
def test_a_build_spends_the_same_cold_warm_and_in_french(fresh_cache):
    """The face cache replays the work it saves (and the text layouts this process remembers
    are charged what laying them out cost): a build never passes warm and fails cold."""
    cold = spend("moving-target")
    warm = spend("moving-target")
    assert warm.spent == cold.spent and warm.by == cold.by
    assert spend("moving-target", lang="fr").spent > 0


# -- a heavy template over many cards ------------------------------------------------------

@pytest.mark.slow
def test_a_heavy_template_over_many_cards_stops_naming_its_line(tmp_path, monkeypatch):
    """A face of ~180,000 units, well within a face's limit, on 200 cards: 36 million units
    unbounded. The build stops when its budget (lowered to 1,000,000 here) is spent, at the
    same face on every machine, naming the template's element and what it spent."""
    monkeypatch.setattr(limits, "MAX_BUILD_WORK", 1_000_000)
    one = top(spend(str(starter(tmp_path / "one", cards=1, face=heavy_face(20)))))
    per_face = one[1]
    assert 150_000 < per_face < 200_000

    project = starter(tmp_path, cards=200, face=heavy_face(20))
    error, budget = spent_out(str(project))
    who, units, runs = top(budget)
    face = project / "faces" / "card.yaml"
    assert who == (str(face), 2, "elements[0]", "face")
    assert (error.file, error.line, error.field) == (str(face), 2, "elements[0]")
    assert 1_000_000 < budget.spent <= 1_000_000 + per_face
    assert runs == math.ceil(units / per_face)  # whole faces, and the one that ran out
    assert error.expected == (
        "the build ran out of work: a build may spend 1,000,000 units (steps, calls, items "
        "and characters made, read or measured, counted the same on every machine), and "
        f"this spent the most: {units:,} units in {runs} faces")
    assert "\n" not in error.message()


def test_the_heaviest_is_named_not_the_last(tmp_path, monkeypatch):
    """The deck's faces spend most of the budget, the tokens drawn after them run it out:
    the message names the deck's template element, not the token face that was drawing."""
    project = starter(tmp_path, cards=7, face=heavy_face(20))
    monkeypatch.setattr(limits, "MAX_BUILD_WORK", spend(str(project)).spent - 50)
    error, budget = spent_out(str(project))
    assert (error.file, error.line) == (str(project / "faces" / "card.yaml"), 2)
    assert "in 7 faces" in error.expected
    tokens = [who for who in budget.by if who and who[0].endswith("token.yaml")]
    assert tokens  # they were drawing when it ran out
    labels = [who for who in budget.by if who and who[3] == "label"]
    data = project / "game.yaml"
    assert labels[0][:3] == (str(data), line_of(data, "label:"), "components[0].label")


# -- a heavy check over a 5,000-row CSV ---------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("kind", ["checks", "verify"])
def test_a_heavy_check_over_a_5000_row_csv_stops_naming_the_check(tmp_path, monkeypatch, kind):
    """~30,500 units a row, 5,000 rows: 150 million units unbounded. Stopped when the
    budget (lowered to 1,000,000) is spent, naming the check's line and the rows it ran."""
    monkeypatch.setattr(limits, "MAX_BUILD_WORK", 1_000_000)
    tail = (f'checks:\n  - table: cards\n    expect: "{HEAVY_CHECK}"\n    message: heavy\n'
            if kind == "checks" else
            f'verify:\n  - name: heavy\n    component: deck\n    where: "{HEAVY_CHECK}"\n'
            '    count: 5000\n')
    project = starter(tmp_path, cards=5000, csv=True, tail=tail)
    error, budget = spent_out(str(project))
    data = project / "game.yaml"
    who, units, runs = top(budget)
    if kind == "checks":
        assert who == (str(data), line_of(data, "expect:"), "checks[0].expect", "row")
        assert f"in {runs} rows" in error.expected
    else:
        assert who == (str(data), line_of(data, "- name: heavy"), "verify[0]", "piece")
        assert f"in {runs} pieces" in error.expected
    assert (error.file, error.line, error.field) == who[:3]
    per_row = units // (runs - 1)  # every run but the last ran whole
    assert 20_000 < per_row < 40_000 and runs < 5000
    assert 1_000_000 < budget.spent <= 1_000_000 + per_row


def test_a_verify_list_has_no_clock(tmp_path, monkeypatch):
    """The verify list's limit was 30 s of wall clock: a busy machine failed what a quiet one
    passed. A clock that jumps an hour at every reading changes nothing now."""
    assert not hasattr(declarative, "VERIFY_SECONDS")
    clock = iter(range(0, 10**9, 3600))
    monkeypatch.setattr(time, "monotonic", lambda: float(next(clock)))
    tail = ('verify:\n  - name: ones\n    component: deck\n    where: "{{ item.value == 1 }}"\n'
            '    count: 18\n')
    game = load_game(str(starter(tmp_path, tail=tail)))
    assert all(finding.ok for finding in declarative.findings(game))


# -- primitives --------------------------------------------------------------------------

def rects(count: int, more: int = 0) -> str:
    """``count`` rectangles drawn by an ``each``, then ``more`` written out."""
    return (f'elements:\n  - each: "{{{{ range({count}) }}}}"\n    do:\n'
            '      - rect: {x: 0, y: 0, w: 1, h: 1}\n'
            + '  - rect: {x: 0, y: 0, w: 1, h: 1}\n' * more)


def test_a_face_draws_at_most_its_primitives(tmp_path, monkeypatch):
    """The cap lowered to 100 (the real one: 10,000, twenty times the heaviest built-in
    face's ~500): the 101st primitive is refused at its element's line."""
    assert MAX_FACE_PRIMITIVES == 10_000
    monkeypatch.setattr(template, "MAX_FACE_PRIMITIVES", 100)
    project = starter(tmp_path, cards=1, face=rects(100, more=1))
    with pytest.raises(DataError) as caught:
        spend(str(project))
    error = caught.value
    assert (error.file, error.line) == (str(project / "faces" / "card.yaml"), 5)
    assert error.expected.startswith("more than 100 primitives (shapes, texts, icons and "
                                     "images; a path or text counts one more per two of "
                                     "its segments or lines) in one face")
    spend(str(starter(tmp_path / "ok", cards=1, face=rects(100))))


def test_a_component_and_a_build_draw_at_most_theirs(tmp_path, monkeypatch):
    """The caps lowered (the real ones: 100,000 and 200,000 primitives, ~50 and ~90 times the
    built-in kits'): 40 cards of 30 rectangles stop at the card that passes the component's,
    naming the component; then at the build's."""
    assert MAX_COMPONENT_PRIMITIVES == 100_000 and limits.MAX_BUILD_PRIMITIVES == 200_000
    project = starter(tmp_path, cards=40, face=rects(30))
    data = project / "game.yaml"
    monkeypatch.setattr(drawing, "MAX_COMPONENT_PRIMITIVES", 300)
    with pytest.raises(DataError) as caught:
        spend(str(project))
    assert (caught.value.file, caught.value.line) == (str(data), line_of(data, "- id: deck"))
    assert "more than 300 primitives" in caught.value.expected
    assert "304 up to item 10 ('C9')" in caught.value.expected  # 10 fronts, 1 shared back

    monkeypatch.setattr(drawing, "MAX_COMPONENT_PRIMITIVES", 100_000)
    monkeypatch.setattr(drawing, "MAX_BUILD_PRIMITIVES", 1200)
    with pytest.raises(DataError, match=r"more than 1,200 primitives .* in one build's faces, "
                                        r"1,204 with this component's"):
        spend(str(project))


# -- at the real figures, in a child process under 500 MB --------------------------------

def spent_line(project: Path) -> re.Match[str]:
    """``pnp build PROJECT`` under 500 MB: exit 2 and the one line of a spent budget."""
    result = pnp_limited(["build", project, "--out", project / "out"])
    assert result.returncode == 2, result.stderr[-2000:]
    found = re.fullmatch(r"error: (.+?):(\d+): (\S+): the build ran out of work: a build may "
                         rf"spend {MAX_BUILD_WORK:,} units \(.*\), and this spent the most: "
                         r"([\d,]+) units in (\d+) (\w+)", one_error_line(result))
    assert found, result.stderr
    return found


@pytest.mark.slow
def test_the_reproductions_at_the_real_budget_stop_within_500_mb(tmp_path):
    """A ~1,800,000-unit face over 5,000 cards (~9 billion units unbounded) and a ~710,000-unit
    check over a 5,000-row CSV (~3.5 billion): each exits 2 with one line once the build's
    20 million units are spent, at the same face and row on every machine."""
    face = heavy_face(200)
    per_face = top(spend(str(starter(tmp_path / "one", cards=1, face=face))))[1]
    assert 1_000_000 < per_face < limits.MAX_FACE_WORK
    project = starter(tmp_path / "faces", cards=5000, csv=True, face=face)
    found = spent_line(project)
    assert found.groups()[:3] == (str(project / "faces" / "card.yaml"), "2", "elements[0]")
    units, runs = int(found[4].replace(",", "")), int(found[5])
    assert found[6] == "faces" and runs == math.ceil(units / per_face)
    assert MAX_BUILD_WORK - per_face < units <= MAX_BUILD_WORK + per_face

    heavy = "{{ " + " and ".join(["range(10000)|map('string')|list|sort|length > 0"] * 2) + " }}"
    with work_budget("expression") as meter:
        assert evaluate(heavy, {"row": {"name": "C0", "suit": "sun", "value": 1}})
    per_row = meter.work
    assert MAX_WORK / 2 < per_row < MAX_WORK
    tail = f'checks:\n  - table: cards\n    expect: "{heavy}"\n    message: heavy\n'
    project = starter(tmp_path / "rows", cards=5000, csv=True, tail=tail)
    found = spent_line(project)
    data = project / "game.yaml"
    assert found.groups()[:3] == (str(data), str(line_of(data, "expect:")), "checks[0].expect")
    units, runs = int(found[4].replace(",", "")), int(found[5])
    assert found[6] == "rows" and runs == math.ceil(units / per_row)
    assert MAX_BUILD_WORK - 2 * per_row < units <= MAX_BUILD_WORK + per_row


def test_calls_and_range_reads_are_charged_what_they_take():
    """Measured on issue 35's 2-core machine: a chain of ``select``/``map`` calls over 5,000
    items spent ~1 us of CPU a unit when a call counted 1 (a build's budget: ~21 s), and a
    range was read for nothing (``range(10000)|max``: 8 units for 1.2 ms, 300 s a budget).
    Now a call costs ``CALL_WORK`` and reading a range its items: each pattern's budget is
    within ~4 s there (the figures below are counts, the same on every machine)."""
    with work_budget("expression") as meter:
        assert evaluate("{{ range(10000)|max }}", {}) == 9999
    assert meter.work > 10_000
    with work_budget("expression") as meter:
        assert evaluate("{{ range(5000)|select('odd')|select('odd')|list|length }}", {}) == 2500
    assert meter.work >= (5000 + 2500) * (limits.CALL_WORK + 1)
    with work_budget("expression") as meter:
        evaluate("{{ range(2000)|map('abs')|map('abs')|list|length }}", {})
    assert meter.work >= 2 * 2000 * (limits.CALL_WORK + 2)
