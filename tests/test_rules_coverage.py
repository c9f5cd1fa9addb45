"""The rules pages teach the whole game: every rule of each seed is printed, each kit shows an
example drawn from its rules engine, and each kit has a player aid per player.

The coverage table in each data file (``rules_coverage``) maps seed lines to printed words.
Here those words are looked for in the built PDF's rules pages, and every line of the seed text
is checked to be accounted for, as a rule or as an aside with a reason (when the seed texts are
present: they live beside the repository, in ../shared/seeds; under CI=1 their absence fails
the test instead of skipping it)."""
from __future__ import annotations

from dataclasses import replace
from functools import cache

import pytest

from generator.data import load_game
from generator.orchestration.composition import verify
from generator.orchestration.drawing import engine_examples
from generator.rules.coverage import coverage_findings, lines_of, normalise

GAMES = ["moving-target", "monster-day", "moving-day", "moving-day-boxes", "movement-game"]


@pytest.fixture(scope="module")
def built(kits, page_texts, crop_texts):
    @cache
    def get(game: str) -> tuple[str, dict]:
        kit = kits(game)
        pdf, manifest = kit.pdf, kit.manifest
        rules_pages = [page["page"] for page in manifest["pages"]
                       if page["content"] == "rules"]
        texts = []
        for n, whole in zip(rules_pages, page_texts(pdf, rules_pages), strict=True):
            # A one-column page reads whole; a two-column page column by column (read
            # whole, its lines would run the two columns together).
            texts += [whole, *crop_texts(pdf, n, [(0, 0, 0.5, 1), (0.5, 0, 1, 1)],
                                         within=False, of_page=True)]
        return normalise(" | ".join(texts)), manifest
    return get


@pytest.mark.parametrize("game", GAMES)
def test_every_seed_rule_is_printed_on_the_rules_pages(built, game):
    coverage = load_game(game).data["rules_coverage"]
    assert coverage, f"{game} has no rules_coverage table"
    text, _ = built(game)
    absent = [(rule["line"], rule["printed"]) for rule in coverage["rules"]
              if normalise(rule["printed"]) not in text]
    assert not absent, f"seed rules not found on {game}'s rules pages: {absent}"


@pytest.mark.parametrize("game", GAMES)
def test_every_line_of_the_seed_is_accounted_for(game, seed_text):
    coverage = load_game(game).data["rules_coverage"]
    lines = seed_text(coverage["seed"]).splitlines()
    wanted = {n for n, line in enumerate(lines, 1) if line.strip()}
    rules, asides = lines_of(coverage["rules"]), lines_of(coverage["not_rules"])
    assert not (rules | asides) - set(range(1, len(lines) + 1)), "lines past the seed's end"
    unaccounted = sorted(wanted - rules - asides)
    assert not unaccounted, (f"{coverage['seed']} lines with no rule and no reason: "
                             + "; ".join(f"{n}: {lines[n - 1][:70]}" for n in unaccounted[:8]))


@pytest.mark.parametrize("game", GAMES)
def test_verify_names_the_seed_line_of_a_rule_dropped_from_the_summary(game):
    """Rewording the summary so a rule's words are gone fails verify, naming the seed line."""
    loaded = load_game(game)
    assert [f.ok for f in coverage_findings(loaded)] == [True]
    coverage = loaded.data["rules_coverage"]
    first = coverage["rules"][0]
    gone = {**coverage, "rules": [{**first, "printed": "words no summary prints"},
                                  *coverage["rules"][1:]]}
    broken = replace(loaded, data={**loaded.data, "rules_coverage": gone})
    [finding] = [f for f in verify(broken) if "seed" in f.check]
    assert not finding.ok and finding.basis == "rulebook"
    assert f"seed line {first['line']}" in finding.detail
    assert finding.where.startswith(str(loaded.source))


@pytest.mark.parametrize("game", GAMES)
def test_rules_pages_show_an_example_computed_by_the_engine(built, game):
    """The rules module computes worked examples, and a rules page draws one of them."""
    loaded = load_game(game)
    assert engine_examples(loaded), f"{game}'s rules module computes no examples"
    diagrams = [section.get("diagram") for comp in loaded.components if comp.kind == "rules"
                for item in comp.items for section in item.get("sections", [])
                if section.get("diagram")]
    assert diagrams, f"{game}'s rules pages draw no engine example"


@pytest.mark.parametrize("game", GAMES)
def test_every_player_gets_an_aid(built, game):
    loaded = load_game(game)
    aids = [comp for comp in loaded.components if comp.kind == "aid"]
    assert aids and sum(comp.total for comp in aids) >= loaded.players[1]
    _, manifest = built(game)
    placed = {piece["component"] for page in manifest["pages"]
              for piece in page.get("pieces", [])}
    assert {comp.id for comp in aids} <= placed
