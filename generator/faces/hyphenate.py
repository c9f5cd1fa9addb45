"""Where a long word may break at the end of a line, from pyphen's hyphenation dictionaries.

pyphen (pinned 0.18.1) ships LibreOffice's hyphenation patterns (tri-licensed MPL 1.1 / GPL
2.0 / LGPL 2.1); the language is the kit's (``lang`` in the template context), English by
default, with British patterns (en_GB), since the kits are written in British spelling.

The rule, kept conservative because a broken word reads worse than a slightly smaller one
(generator/faces/rich_layout.py decides *when* a word is broken; this module says *where*):

- a word is broken only at a dictionary break point of a stretch of at least
  ``MIN_LETTERS`` letters, leaving at least ``LEFT`` letters before the break and ``RIGHT``
  after it, and a hyphen is added there;
- a word that already has a hyphen (``face-down``) may also break after it, adding nothing;
- nothing else breaks: numbers, short words, icons.
"""
from __future__ import annotations

import re

import pyphen

from generator.core import memo

MIN_LETTERS = 6
LEFT = 2
RIGHT = 3
MAX_LETTERS = 64  # longer runs of letters are not words any dictionary knows
HARD_HYPHENS = "-\u2010"
DEFAULT = "en_GB"
_CORE = re.compile(r"[^\W\d_](?:[\w'’]*[^\W\d_])?")


def language(lang: object) -> str | None:
    """The pyphen dictionary for a kit language (``fr``, ``en``, ``en_GB``, ``fr-FR``...);
    English (en_GB) when none is given, None when pyphen has no dictionary for it."""
    if lang is None or lang == "":
        return DEFAULT
    return _language(lang) if isinstance(lang, str) else None


@memo.memo(maxsize=64)
def _language(lang: str) -> str | None:
    if not re.fullmatch(r"[A-Za-z]{2,3}(?:[-_][A-Za-z]{2,4})?", lang):
        return None
    code = lang.replace("-", "_")
    if code.lower() == "en":
        return DEFAULT
    return pyphen.language_fallback(code)


@memo.memo(code=True)  # pyphen's packaged dictionaries
def _dictionary(name: str) -> pyphen.Pyphen:
    return pyphen.Pyphen(lang=name, left=LEFT, right=RIGHT)


@memo.memo(maxsize=8192)
def breaks(word: str, lang: str) -> tuple[tuple[int, bool], ...]:
    """Where ``word`` may break, ascending: (characters before the break, hyphen added)."""
    found: dict[int, bool] = {}
    for index, ch in enumerate(word):
        if ch in HARD_HYPHENS and 1 < index + 1 < len(word) - 1:
            found[index + 1] = False
    dictionary = _dictionary(lang)
    for core in _CORE.finditer(word):
        letters = sum(ch.isalpha() for ch in core.group(0))
        if not MIN_LETTERS <= letters <= MAX_LETTERS:
            continue
        for position in dictionary.positions(core.group(0)):
            found.setdefault(core.start() + position, True)
    return tuple(sorted(found.items()))
