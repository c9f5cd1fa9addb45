"""The shapes of the two files the movement game's engine reads for itself.

``movement-examples.yaml`` (the worked examples' set-up, ``worked``) and
``movement-reference.yaml`` (what verify compares the printed kit with, ``reference``) sit
beside the game's data file but are no game files: the loader never reads them. They come from
strangers all the same, so each declares its shape here once and is checked against it on load
(generator/data/tables/loader.py's ``load_shaped``): a hostile edit is one line naming the file, the
line and the field, and the engine reads only values of the declared types and bounds. What
the shape cannot know (a card name that is no navigation card, a token off the board) is
checked against the game by the module that reads the file, naming the same file and line.
"""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from generator.data.tables.schema import Strict

MAX_BOARD = 40  # rows and columns of a board (a board table's own bound is the game's)
Side = Literal["N", "E", "S", "W"]
Name = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9_-]{0,39}$")]
BoardName = Annotated[str, Field(min_length=1, max_length=64)]
Text = Annotated[str, Field(min_length=1, max_length=400)]
Count = Annotated[int, Field(ge=0, le=1000)]
Cell = Annotated[int, Field(ge=0, lt=MAX_BOARD)]
Unit = Annotated[int, Field(ge=-1, le=1)]
Row = Annotated[str, Field(pattern=rf"^[#.NESW]{{1,{MAX_BOARD}}}$")]


# -- movement-examples.yaml ----------------------------------------------------------------

class Play(Strict):
    card: Name  # a navigation card's direction
    token: int = Field(ge=0, le=15)  # index in the side's tokens (the engine packs 4 bits)
    steps: int = Field(ge=1, le=15)


class Turn(Strict):
    side: Side
    who: Annotated[str, Field(min_length=1, max_length=80)]
    seed_line: int | None = Field(default=None, ge=1, le=100_000)
    roll: int = Field(ge=1, le=100)  # and at most the game's die (checked against it)
    hand: list[Name] = Field(max_length=20)
    deck: list[Name] = Field(max_length=100)
    plays: list[Play] = Field(max_length=20)
    stop: bool = False


class Examples(Strict):
    board: BoardName
    players: int = Field(ge=2, le=4)  # a player count the game seats (checked)
    tokens: dict[Side, list[tuple[Cell, Cell]]] = Field(default_factory=dict)
    turns: list[Turn] = Field(min_length=1, max_length=6)


# -- movement-reference.yaml ---------------------------------------------------------------

class Group(Strict):
    """A group of reference values: where they come from, and on what basis."""

    basis: Literal["rulebook", "design"]
    source: Text


class NavigationRef(Group):
    cards: dict[Name, Count] = Field(max_length=50)
    arrows: dict[Name, tuple[Unit, Unit]] = Field(max_length=50)

    @model_validator(mode="after")
    def an_arrow_per_card(self) -> NavigationRef:
        """Each card of the deck has its arrow (and no arrow is for a card not in it): else
        the file itself is wrong, whatever the kit prints."""
        if set(self.arrows) != set(self.cards):
            odd = sorted(set(self.arrows) ^ set(self.cards))
            raise ValueError(f"expected an arrow for each card of 'cards' and no other; "
                             f"'arrows' and 'cards' differ in {', '.join(odd)}")
        return self


class TokensRef(Group):
    counts: dict[Name, Count] = Field(max_length=20)


class SymbolsRef(Group):
    symbols: dict[Name, Name] = Field(max_length=20)


class DeckRef(Group):
    cards: dict[Name, Count] = Field(max_length=50)


class BoardKindsRef(Group):
    symmetries: dict[Name, Count] = Field(max_length=20)
    starts_per_side: int = Field(ge=0, le=4 * MAX_BOARD)


class Layout(Strict):
    rows: list[Row] = Field(min_length=1, max_length=MAX_BOARD)


class BoardsRef(Group):
    layouts: dict[BoardName, Layout] = Field(max_length=20)


class Reference(Strict):
    source: Text
    navigation: NavigationRef
    tokens: TokensRef
    token_symbols: SymbolsRef
    standard_deck: DeckRef
    board_kinds: BoardKindsRef
    boards: BoardsRef
