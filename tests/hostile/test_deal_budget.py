"""``deal:`` questions share one budget of cards dealt per build, and their answers are kept
in the cache (issue 35, deliver 3).

Each question was bounded alone (5,000,000 cards), so 30 of them dealt 150,000,000 cards:
70 s of CPU on every ``verify``, outside the build's budget, and again on every studio save.
Now the questions of one build deal at most ``MAX_BUILD_DEALT`` cards together (a question
past what is left fails at its own line, saying how many deals still fit), and an answer is
read from the cache when the question and the deck are unchanged, spending again the cards
dealing it spent: the same questions fail warm as cold.

Assertions count cards dealt and deals made, never seconds.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from generator.core import context
from generator.data import load_game
from generator.data.tables.deal_list import MAX_BUILD_DEALT
from generator.frontends.cli import main
from generator.rules import deal

TRIALS = 100_000  # each question: 100,000 deals of 2 hands of 9 cards = 1,800,000 cards


def project(folder: Path, questions: int, trials: int = TRIALS) -> Path:
    """The starter (18 cards in 3 suits) asking ``questions`` Monte Carlo questions."""
    assert main(["init", str(folder)]) == 0
    data = folder / "game.yaml"
    asked = "".join(f"  - {{name: void {k}, players: 2, hand: 9, void: suit, who: anyone, "
                    f"trials: {trials - k}}}\n" for k in range(questions))
    data.write_text(data.read_text(encoding="utf-8") + "\ndeal:\n" + asked, encoding="utf-8")
    return folder


@pytest.fixture
def dealt(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The cards each Monte Carlo dealt, in order."""
    cards: list[int] = []
    real = deal.monte_carlo

    def counting(n: int, players: int, hand: int, trials: int, seed: int, hit, anyone: bool
                 ) -> int:
        cards.append(trials * hand * (players if anyone else 1))
        return real(n, players, hand, trials, seed, hit, anyone)

    monkeypatch.setattr(deal, "monte_carlo", counting)
    return cards


@pytest.mark.slow  # over tests/lanes.py's budget
def test_the_questions_of_one_verify_share_its_cards(tmp_path: Path, capsys,
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     dealt: list[int]) -> None:
    monkeypatch.setenv("PNP_CACHE", "0")
    folder = project(tmp_path / "many", 4)
    assert main(["verify", str(folder)]) == 1
    out = capsys.readouterr().out
    assert dealt == [1_800_000, 1_799_982]  # two fit; the others deal nothing
    assert sum(dealt) <= MAX_BUILD_DEALT
    left = MAX_BUILD_DEALT - sum(dealt)
    lines = [line for line in out.splitlines() if "deal: void" in line]
    assert len(lines) == 4 and "[ok  ]" in lines[0] and "[ok  ]" in lines[1]
    assert (f"may deal {MAX_BUILD_DEALT} cards in all, {left} are left, and this one deals "
            f"1799964: ask for at most {left // 18} deals here" in lines[2])
    assert str(folder / "game.yaml") + ":" in lines[2]  # at the question's own line
    assert "and this one deals 1799946" in lines[3]


@pytest.mark.slow  # over tests/lanes.py's budget
def test_answers_come_from_the_cache_and_spend_the_same(tmp_path: Path, capsys,
                                                        monkeypatch: pytest.MonkeyPatch,
                                                        dealt: list[int]) -> None:
    monkeypatch.setenv("PNP_CACHE", "1")
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    folder = project(tmp_path / "cached", 4)
    assert main(["verify", str(folder)]) == 1
    cold = capsys.readouterr().out
    assert len(dealt) == 2
    assert main(["verify", str(folder)]) == 1  # warm: the same lines, nothing dealt
    warm = capsys.readouterr().out
    assert len(dealt) == 2
    assert [line for line in warm.splitlines() if "deal:" in line] == \
        [line for line in cold.splitlines() if "deal:" in line]


def test_the_studio_deals_again_only_when_the_deck_or_question_changed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, dealt: list[int]) -> None:
    monkeypatch.setenv("PNP_CACHE", "1")
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    folder = project(tmp_path / "studio", 1, trials=1000)
    data = folder / "game.yaml"

    def save() -> list[str]:  # a studio save asks (generator/orchestration/exporters/studio.py)
        with context.building():
            return [finding.line() for finding in deal.findings(load_game(str(data)))]

    first = save()
    assert save() == first and len(dealt) == 1  # saved unchanged: read, not dealt
    data.write_text(data.read_text(encoding="utf-8").replace("{name: Dawn, suit: sun",
                                                             "{name: Dawn, suit: moon"),
                    encoding="utf-8")
    save()
    assert len(dealt) == 2  # a card changed suit: dealt again
    data.write_text(data.read_text(encoding="utf-8").replace("trials: 1000", "trials: 999"),
                    encoding="utf-8")
    save()
    assert len(dealt) == 3  # the question changed: dealt again


def test_a_tampered_answer_is_a_miss(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     dealt: list[int]) -> None:
    monkeypatch.setenv("PNP_CACHE", "1")
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    data = project(tmp_path / "tampered", 1, trials=1000) / "game.yaml"

    def ask() -> list[str]:
        with context.building():
            return [finding.line() for finding in deal.findings(load_game(str(data)))]

    first = ask()
    (entry,) = (tmp_path / "cache").glob(f"{deal.CACHE_KIND}-*.json")
    text = entry.read_text(encoding="utf-8")
    entry.write_text(text.replace(',1000,1]', ',0,1]'), encoding="utf-8")  # trials: 0
    assert ask() == first
    assert len(dealt) == 2  # the entry was refused, the question dealt again
