"""The application layer: everything a front end may ask of the tool, in one place.

The command line (generator/frontends/cli.py) parses and prints; it calls only these functions
and names, never the layout, render, rules or data stages directly, so a second front end (the
watch loop, the studio, an editor plug-in) gets the same behaviour by calling the same layer.
Watch and the studio stand on this module as the CLI does (import-linter contracts), and it
starts none of them: the CLI does, so no front end imports another back through here.

Lazy on purpose: at import this module loads only the ground floor and the build options, so
``pnp --version`` and ``pnp --help`` answer without loading YAML, pydantic, Jinja or ReportLab
(``make bench`` times them, whole process). Each function imports the stage it runs.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator.core import context, folders, paths
from generator.core.atomic import DEFAULT_LOCK_TIMEOUT, OutputError, set_lock_timeout
from generator.core.errors import (
    CompositionError,
    DataError,
    ForwardedError,
    InputError,
    reported,
)
from generator.core.languages import SOURCE, languages
from generator.core.sizes import PAPER_SIZES
from generator.core.words import said
from generator.orchestration.options import BuildOptions

if TYPE_CHECKING:  # "X as X": named by the studio, which stands on this layer
    from generator.core.findings import Finding
    from generator.core.model import Game
    from generator.core.primitives import Face
    from generator.core.resources import Resources
    from generator.layout.page import Page
    from generator.layout.page import Placement as Placement
    from generator.orchestration.exporters.studio import Drawn
    from generator.orchestration.exporters.studio import PieceInfo as PieceInfo
    from generator.orchestration.parallel import Built
    from generator.render.png_page import FaceImages

__all__ = [
    "DEFAULT_LOCK_TIMEOUT",
    "PAPER_SIZES",
    "BuildOptions",
    "CompositionError",
    "DataError",
    "ForwardedError",
    "InputError",
    "OutputError",
    "balance",
    "build",
    "build_many",
    "calibration",
    "catalogue",
    "deal",
    "deal_findings",
    "draft",
    "export_pngs",
    "export_tts",
    "face_pictures",
    "game_file",
    "game_list",
    "games",
    "here",
    "init",
    "languages",
    "load",
    "output_folder",
    "page_picture",
    "preview",
    "project_data_file",
    "project_list",
    "reference",
    "replay",
    "reported",
    "revoke",
    "schemas",
    "set_lock_timeout",
    "simulate",
    "studio_build",
    "template_lines",
    "trust",
    "trusted",
    "trusting",
    "unknown_variant",
    "untranslated",
    "untrusted_notes",
    "verify_report",
    "version",
]

version = paths.version
OUTPUT = paths.OUTPUT


def load(game_id: str) -> Game:
    """One game, loaded and checked (generator/data/)."""
    from generator.data import load_game

    return load_game(game_id)


def untranslated() -> Any:
    """``with untranslated() as missing:`` collects the texts a build printed in English."""
    from generator.data.translation import i18n

    return i18n.collect()


def games(named: Sequence[str], out_dir: Path | None = None) -> list[str]:
    """The games named (or every built-in game), refusing two that would share an output
    folder when ``out_dir`` is where they will be written."""
    from generator.data import check_games

    return check_games(list(named), out_dir)


def game_list() -> list[str]:
    """One line per built-in game: id, title, players and components with their counts
    (remembered by the content of the files read: generator/orchestration/listing.py)."""
    from generator.orchestration import listing

    return listing.lines()


def here() -> list[str]:
    """What a command acts on when no game is named: the project the designer stands in
    (its folder), or nothing (every built-in game) outside a project
    (generator/core/folders.py: light, so ``pnp list`` stays quick)."""
    return folders.here()


def project_list(folder: Path | None) -> Iterator[tuple[str, str | None]]:
    """``pnp list [DIR]``: (line, None) for each project at or directly inside ``folder``
    (the current folder by default), or (folder, error) for one that does not load."""
    where = Path(".") if folder is None else folder
    if not where.is_dir():
        raise InputError(f"{where} is not a folder (pnp list DIR lists the projects in DIR)")
    from generator.orchestration import listing

    for found in folders.projects_in(where):
        try:
            yield listing.project_line(found), None
        except (DataError, InputError) as exc:
            text, _ = reported(exc) or (str(exc), 2)
            yield str(found), text


def output_folder(named: Sequence[str]) -> Path:
    """Where kits go when no --out is given: a project's own output/, else the built-in one."""
    from generator.data.files import project

    return project.output_folder(list(named))


def build(game_id: str, opts: BuildOptions) -> tuple[Path, int]:
    """One game's kit (PDF, manifest, calibration sheet): its PDF and page count."""
    from generator.orchestration.build import build_pdf

    return build_pdf(game_id, opts)


def build_many(game_ids: Sequence[str], opts: BuildOptions,
               jobs: int | None = None) -> Iterator[Built]:
    """Several games' kits, built at once on the machine's cores
    (generator/orchestration/parallel.py),
    yielded in the order named; ``jobs`` caps the worker processes (default: one per core)."""
    # Imported here, before build_games forks its workers: each worker then starts with the
    # pipeline loaded (about 0.1 s of CPU a worker would spend importing it again).
    from generator.orchestration.build import build_pdf  # noqa: F401
    from generator.orchestration.parallel import build_games

    return build_games(build, game_ids, opts, jobs)


def export_pngs(game_id: str, opts: BuildOptions, dpi: int | None, jobs: int,
                preset: str) -> tuple[Path, int]:
    from generator.orchestration.export import export_pngs as export

    return export(game_id, opts, dpi=dpi, jobs=jobs, preset=preset)


def export_tts(game_id: str, opts: BuildOptions, base_url: str | None,
               jobs: int, dpi: int = 150) -> tuple[Path, int, list[str]]:
    """A Tabletop Simulator saved object and its images at ``dpi`` (generator/orchestration/
    tts.py): the JSON file, the objects on the table and the components left out."""
    from generator.orchestration.exporters.tts import export_tts as export

    return export(game_id, opts, base_url=base_url, jobs=jobs, dpi=dpi)


def verify_report(game_id: str, opts: BuildOptions) -> tuple[Game, list[Finding]]:
    """Composition (is the set right?) then pre-flight (will it print right?); in a kit of
    another language, every text it would print in English (generator/data/translation/i18n.py)."""
    from generator.core.findings import Finding
    from generator.data import load_game
    from generator.data.translation import i18n
    from generator.orchestration.composition import verify
    from generator.orchestration.preflight.report import preflight

    with i18n.collect() as missing, context.building():
        game = load_game(game_id)
        with i18n.session(game, opts.lang):
            found = verify(game)
            # A set that `build` refuses to print is not drawn here either: its faces may
            # need what the failure says is missing (a worked example's card). Verify then
            # reports what build reports, and says the pre-flight waits for the fix.
            found += preflight(game, opts) if all(f.ok or f.warn for f in found) else [
                Finding("pre-flight", False, "not run: the set is incomplete or wrong (the "
                        "failures above); fix them and verify again", warn=True)]
    return game, found + deal_findings(game) + i18n.findings(missing, opts.lang)


def deal_findings(game: Game) -> list[Finding]:
    """The data file's ``deal:`` questions answered (generator/rules/deal.py), one finding
    each; none for a game without them."""
    from generator.rules import deal as deals

    with context.building():
        return deals.findings(game)


def deal(game_id: str, players: int, hand: int, component: str | None, suit: str | None,
         trials: int, seed: int, none: str | None, at_least: int | None, where: str | None,
         draws: int | None = None) -> list[str]:
    """``pnp deal``'s report (generator/rules/deal.py): ValueError for what cannot be
    dealt or asked, in words."""
    from generator.data.tables.deal_list import ConditionError
    from generator.rules import deal as deals

    with context.building():
        game = load(game_id)
        try:
            return deals.report(game, players, hand, component, suit, trials, seed,
                                none=_condition(none), at_least_k=at_least,
                                where=_condition(where), draws=draws)
        except ConditionError as exc:  # named by the option that gave it
            text = none if exc.argument == "none" else where
            raise ValueError(f"--{exc.argument} {said(text, 60)[1:-1]}: {exc}") from None


def _condition(text: str | None) -> dict[str, str] | str | None:
    """A ``where:`` condition typed on the command line: an expression over ``item``
    (``"{{ item.rank.value > 7 }}"``) as it is, or ``FIELD=VALUE`` as ``{FIELD: VALUE}``,
    the VALUE read as its field's type on the deck's cards (data/tables/deal_list.py's
    ``typed_where``: ``fog=yes`` on a boolean field, ``rank=7`` on a number field)."""
    if text is None or "{{" in text or "{%" in text:
        return text
    name, equals, value = text.partition("=")
    if not equals or not name.strip():
        raise ValueError(f"a condition is FIELD=VALUE or an expression like "
                         f"\"{{{{ item.rank.value > 7 }}}}\" (got {said(text)})")
    return {name.strip(): value.strip()}


def catalogue(game_id: str, lang: str) -> tuple[Any, int, int]:
    """``pnp i18n``: the project's catalogue in ``lang`` written or brought up to date with
    every text the kit prints untranslated (generator/data/translation/i18n_skeleton.py), found as
    ``verify --lang`` finds them; how many of them no catalogue can translate (data values
    printed without t(): a translated column, or t() in the template, does); and how many
    cells of translated columns are blank (filled in the table, not the catalogue)."""
    from generator.core.errors import location
    from generator.data import load_game
    from generator.data.files.project import Project
    from generator.data.translation import i18n, i18n_skeleton
    from generator.orchestration.composition import verify
    from generator.orchestration.preflight.report import preflight

    if lang == SOURCE:
        raise InputError(f"the kit's texts are written in {SOURCE}; say which language to "
                         f"translate them into: --lang {' or '.join(languages()[1:])}")
    opts = BuildOptions(lang=lang)
    with i18n.collect() as missing, context.building():
        game = load_game(game_id)
        root = Project(Path(game.source).resolve().parent).root
        if root is None or Path(game.source).resolve().parent == paths.CARD_DATA.resolve():
            raise InputError(f"{game_id}: pnp i18n writes a project's catalogue "
                             "(<project>/messages/<lang>.yaml); name a project folder")
        with i18n.session(game, lang) as session:
            found = verify(game)
            if not all(f.ok or f.warn for f in found):  # verify_report's rule: not drawn
                raise InputError(f"{game_id}: the set fails its checks (pnp verify "
                                 f"{game_id}); fix them, then pnp i18n lists every text")
            preflight(game, opts)  # every face drawn: every text looked up
            used = set(session.hits)
    def where(m: i18n.Missing) -> str:  # in the catalogue: from the project's folder
        file = Path(m.file).resolve()
        shown = file.relative_to(root) if file.is_relative_to(root) else Path(m.file)
        return location(shown, m.line, m.field)

    wanted = [(m.text, where(m)) for m in i18n.ordered(missing)
              if m.how in ("text", "t()", "name", "python")]
    values = len({m.text for m in missing if m.how == "value"})
    blanks = len({(m.file, m.line, m.field) for m in missing if m.how == "cell"})
    file = i18n_skeleton.catalogue_file(root, lang)
    return i18n_skeleton.update(file, lang, wanted, used), values, blanks


def engine(game: Game) -> Any:
    """The game's play engine (its rules module), or None for a game without one."""
    from generator.orchestration import simulate as sim

    return sim.engine(game)


def no_engine(game_id: str) -> str:
    from generator.orchestration import simulate as sim

    return sim.no_engine(game_id)


def unknown_variant(game: Game, variant: str | None) -> str | None:
    """Why ``--variant`` names no set-up (board) of the game, or None when it does (or
    names none)."""
    from generator.orchestration import simulate as sim

    module = sim.engine(game)
    if variant is None or module is None:
        return None
    names = [name for name, _ in sim.setups(module, game.data)]
    if variant in names:
        return None
    return f"--variant {said(variant)}: {game.id} has " + (
        "the set-ups " + ", ".join(map(said, names)) if any(names)
        else "one set-up, no variants")


def replay(game: Game, players: int, seed: int, policy: str, variant: str | None
           ) -> Iterator[tuple[str, str]]:
    """One game of game seed ``seed`` per set-up (or the one ``variant``): (heading, how it
    went); nothing for a count the game does not allow. A fault is raised as in the run."""
    from generator.orchestration import simulate as sim

    module = sim.engine(game)
    if module is None:
        return
    try:
        module.new_game(players, 0, game.data)
    except ValueError:
        return
    for name, setup in sim.setups(module, game.data):
        if variant is not None and name != variant:
            continue
        heading = f"{game.title} ({name})" if name else game.title
        yield (f"{heading}, {players} players",
               sim.replay(module, players, seed, policy, setup, name))


def simulate(game: Game, players: int, n: int, seed: int, jobs: int, policy: str,
             out_dir: Path, compare: bool = False, variant: str | None = None
             ) -> Iterator[tuple[str, str, Path]]:
    """Seeded playouts of every variant (board) for one player count, or of the one
    ``variant``: (heading, report, chart file) per variant; nothing for a count the game
    does not allow. ``compare`` also plays the same games under the other policy and adds
    the two side by side."""
    from generator.orchestration import simulate as sim
    from generator.orchestration import simulate_chart  # Pillow loads only to draw a chart

    module = sim.engine(game)
    if module is None:  # no play engine: the caller says so (``no_engine``)
        return
    runs = sim.run_variants(module, game.title, game.data, players, only=variant, n=n,
                            seed=seed, jobs=jobs, policy=policy)
    others = sim.run_variants(module, game.title, game.data, players, only=variant, n=n,
                              seed=seed, jobs=jobs,
                              policy=sim.other_policy(policy)) if compare else []
    for k, (suffix, report) in enumerate(runs):
        chart = out_dir / game.id / f"simulation{suffix}-{players}p-{policy}.png"
        simulate_chart.write_chart(report, chart)
        text = sim.format_report(report)
        if others:
            text += "\n" + sim.compare_policies(report, others[k][1])
            both = out_dir / game.id / f"simulation{suffix}-{players}p-compare.png"
            simulate_chart.write_comparison_chart(report, others[k][1], both)
            text += f"\ncomparison chart -> {both}"
        yield f"{report.game}, {players} players", text, chart


def preview(opts: BuildOptions, n_games: int, named: list[str]) -> Path:
    from generator.orchestration.exporters.preview import write_preview

    return write_preview(opts, n_games=n_games, games_wanted=named)


def calibration(out_dir: Path, paper: str, flip: str, lang: str = SOURCE) -> Path:
    from generator.orchestration.output import write_calibration

    suffix = "" if lang == SOURCE else f".{lang}"
    target = out_dir / "calibration" / f"calibration-{paper}-{flip}{suffix}.pdf"
    write_calibration(target, BuildOptions(paper=paper, flip=flip, lang=lang))
    return target


# What the watch loop and the studio (generator/frontends/watch.py, studio/) ask: they are
# front ends above this layer (the command line starts them), so they come here for every
# stage, never to the data, layout, render or orchestration packages (a contract).


def project_data_file(folder: Path) -> Path:
    """The data file of the project in ``folder`` (generator/data/files/project.py decides which of
    its files is the game); a folder with no game, or several, is an error a user can act on."""
    from generator.data.files import project

    return project.data_file(folder)


def game_file(game_id: str) -> Path:
    """A built-in game's data file, by its id."""
    from generator.data.tables import loader

    return loader.game_file(game_id, paths.CARD_DATA)


def draft(data_file: str, opts: BuildOptions) -> tuple[Path, int, list[Finding]]:
    """``build`` for the watch loop: a set that fails its checks is built all the same, NOT
    VERIFIED on every page, and the failing checks come back with the PDF and its pages."""
    from generator.orchestration.build import build_draft

    return build_draft(data_file, opts)


def studio_build(data_file: str, opts: BuildOptions,
                 publish: Callable[[Drawn], None] | None = None) -> Drawn:
    """The studio's draft build: the drawing handed to ``publish`` at once, then its report
    and PDF (generator/orchestration/exporters/studio.py)."""
    from generator.orchestration.exporters.studio import studio_build as run

    return run(data_file, opts, publish)


def balance(data_file: str, folder: Path, n_games: int, lang: str, jobs: int
            ) -> tuple[str, list[str]]:
    """A simulation's summary and its charts written into ``folder``, as the gallery shows
    them (generator/orchestration/exporters/preview.py): the studio's play report."""
    from generator.orchestration.exporters.preview import simulation

    return simulation(data_file, folder, n_games, lang, jobs)


def template_lines(face: Face) -> tuple[int, ...]:
    """The lines of a face's template that drew it, for the studio's "where is this" view."""
    from generator.orchestration.exporters.studio import template_lines as lines

    return lines(face)


def face_pictures() -> FaceImages:
    """A holder of face pictures, each distinct face drawn once per resolution
    (generator/render/png_page.py); the caller keeps it as long as the pictures serve."""
    from generator.render.png_page import FaceImages

    return FaceImages()


def page_picture(page: Page, dpi: int, resources: Resources, faces: FaceImages) -> Any:
    """A whole laid-out page as a Pillow image, its faces drawn through ``faces``."""
    from generator.render.png_page import render_page

    return render_page(page, dpi, resources=resources, faces=faces)


def schemas(out_dir: Path) -> list[Path]:
    from generator.orchestration.exporters.schema_export import write_schemas

    return list(write_schemas(out_dir))


def reference(target: Path | None) -> Path:
    from generator.orchestration.exporters.reference_doc import write_reference

    return write_reference(target)


def init(folder: Path, engine: bool = False) -> list[Path]:
    """A new project folder holding a small game that builds at once; with ``engine``, a
    ``rules.py`` that plays it too (docs/engines.md)."""
    from generator.data.files import project
    from generator.orchestration.exporters.schema_export import write_editor_settings, write_schemas

    written = list(project.init_project(folder, engine))
    # The editor's help: JSON Schemas for each kind of file, mapped for VS Code's YAML
    # extension (completion, hover text and errors as you type).
    return [*written, *write_schemas(folder / "schemas"), write_editor_settings(folder)]


def eject(kind: str, name: str, folder: Path) -> tuple[Path, Path]:
    """A built-in face, theme or icon copied into a project (generator/data/files/project.py)."""
    from generator.data.files import project

    return project.eject(kind, name, folder)


def ejectable(kind: str) -> list[str]:
    from generator.data.files import project

    return project.ejectable(kind)


def trust(folder: Path) -> Path:
    """Trust a project folder's own code (generator/core/trust.py): the folder recorded."""
    from generator.core import trust as store

    return Path(store.trust(folder).path)


def revoke(folder: Path) -> bool:
    """Stop trusting a folder; whether it was trusted."""
    from generator.core import trust as store

    return store.revoke(folder)


def trusted() -> list[tuple[Path, str]]:
    """Every folder the user trusted, and what it is now: "trusted", "changed since
    trusted" (its Python files are not those trusted: not run) or "gone"."""
    from generator.core import trust as store

    return [(Path(e.path), e.state()) for e in store.entries()]


def trusting(named: Sequence[str]) -> Any:
    """``with trusting(games):`` the project folders named are trusted until the block ends
    (``--trust``); game ids and data files name their folder."""
    from generator.core import trust as store

    return store.for_run(_folders(named))


def _folders(named: Sequence[str]) -> list[Path]:
    from generator.data.files import project

    found = []
    for name in named:
        path = Path(name)
        if project.is_project_dir(name):
            found.append(path)
        elif path.suffix in (".yaml", ".yml"):
            found.append(path.parent)
    return found


def untrusted_notes(named: Sequence[str], lang: str = SOURCE) -> list[str]:
    """What a build of the project folders (or data files) named skips because their own
    code is not trusted, one sentence each with the command that trusts it; said once by the
    front end. Built-in games are the tool's own: nothing to say (and nothing imported: a
    build imports the data layer itself, with the collector eased, cli.collector_eased)."""
    notes = []
    for name in named:
        if not _folders([name]):
            continue
        from generator import rules
        from generator.core import trust as store
        from generator.data import load_game

        with context.building():
            try:
                game = load_game(name)
                own = rules.project_engine(game)
            except (DataError, InputError):
                continue  # the build itself reports it, where it always has
        if own is not None and not store.trusted(own.folder):
            notes.append(rules.trust_message("trust.skipped", own, lang))
    return notes
