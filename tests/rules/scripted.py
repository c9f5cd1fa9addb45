"""Test helpers shared by the rules tests."""
from __future__ import annotations

import random


class FixedDice(random.Random):
    """An rng whose randint returns scripted values, to stage die rolls."""

    def __init__(self, rolls):
        super().__init__(0)
        self.rolls = list(rolls)

    def randint(self, a, b):
        value = self.rolls.pop(0)
        assert a <= value <= b
        return value
