"""What a kit is called: its words in the kit's language and the names of the files it writes.

The titles, credits and component names the footers, contents sheet and bookmarks print
(each through the kit's language session, generator/data/translation/i18n.py), and the file names a
build writes: the kit's PDF, its calibration sheet and cut-file folder, with a suffix for
each choice that differs from the defaults so variants sit side by side.
"""
from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any

from generator.core.model import Component, Game
from generator.data.translation import i18n
from generator.orchestration.options import BuildOptions
from generator.rules.base import at

_Fn = Callable[..., Any]


def in_kit_language(fn: _Fn) -> _Fn:
    """Run ``fn(game, ..., opts, ...)`` with ``opts.lang`` as the kit language of ``game``
    (generator/data/translation/i18n.py); inside a build of the same game and language, the build's
    own."""
    @functools.wraps(fn)
    def run(game: Game, *args: Any, **kwargs: Any) -> Any:
        opts = next((a for a in (*args, *kwargs.values()) if isinstance(a, BuildOptions)),
                    BuildOptions())
        with i18n.session(game, opts.lang):
            return fn(game, *args, **kwargs)
    return run


def kit_title(game: Game) -> str:
    """The game's title in the kit's language (as the footers and contents sheet print it)."""
    return i18n.data_text(game.title, lambda: at(game, "title"))


def kit_credit(game: Game) -> str:
    return i18n.data_text(game.credit, lambda: at(game, "credit"))


def kit_name(game: Game, comp: Component) -> str:
    """A component's name in the kit's language (contents sheet, footers, bookmarks)."""
    return i18n.data_text(comp.name, lambda: at(game, "components", comp.id, "name"))


def variant_suffix(opts: BuildOptions, ink: bool = True) -> str:
    """What a kit's file name adds for each choice that differs from the defaults (A4, flip on
    the long edge, full ink, English), in that order, before the extension:
    ``moving-target.letter.short.saver.fr.pdf``. So kits for two playtesters (A4 for one,
    Letter for the other) sit side by side instead of one replacing the other. The flip only
    names a duplex kit: gutterfold and single-piece layouts are printed one-sided."""
    default = BuildOptions()
    parts = [opts.paper if opts.paper != default.paper else "",
             opts.flip if opts.flip != default.flip and opts.layout == "sheets" else "",
             "saver" if ink and opts.ink_saver else "",
             opts.lang if opts.lang != i18n.SOURCE else ""]
    return "".join(f".{part}" for part in parts if part)


def calibration_name(game_id: str, opts: BuildOptions) -> str:
    """The kit's duplex calibration sheet: it depends on the paper and the flip (and the
    language it is written in), not on the ink or the layout."""
    return f"{game_id}-calibration{variant_suffix(opts, ink=False)}.pdf"


def output_pdf(game_id: str, opts: BuildOptions) -> Path:
    """The kit is output/<id>/<id>.pdf; other layouts get a suffix so they never replace it,
    and other papers, flips, ink and languages theirs before the extension (``variant_suffix``:
    ``<id>.letter.pdf``, ``<id>-gutterfold.fr.pdf``)."""
    suffix = "" if opts.layout == "sheets" else f"-{opts.layout}"
    return opts.out_dir / game_id / f"{game_id}{suffix}{variant_suffix(opts)}.pdf"


def cut_folder(pdf: Path) -> Path:
    """Where ``build --cut-svg`` puts a kit's cut files: ``<kit>-cut/`` beside its PDF."""
    return pdf.with_name(pdf.name.removesuffix(".pdf") + "-cut")
