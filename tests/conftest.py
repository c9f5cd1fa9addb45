"""Shared fixtures: the Moving Target kit built once per session, plus small helpers; the
hypothesis profiles; what a CI run (CI=1) refuses to skip."""
from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import fields
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import settings

from generator.core import atomic, context, memo, paths, yamlfile

if TYPE_CHECKING:
    from tests.kits import Built

# The build and the PDF readers are imported where they are used: the run's controlling process
# (pytest-xdist's, which hands tests to the workers) builds and reads nothing.

GAME = "moving-target"
MOVING_TARGET_YAML = paths.CARD_DATA / f"{GAME}.yaml"
# The seed texts the rules pages are checked against live beside the checkout, not in it.
SEEDS = paths.ROOT.parent / "shared" / "seeds"
# CI sets CI (to 1 or true): a run there must not pass by skipping what it was meant to check.
IN_CI = os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")

# Hypothesis: in CI the same cases every run (a red CI is then the code's doing, not the draw's)
# and no example database; on a developer's machine fresh cases each run, failures remembered.
# No deadline in either: speed is measured in benchmarks, never asserted by a test (a loaded
# machine would fail an honest case). `pytest` prints the profile in use in its header.
settings.register_profile("ci", derandomize=True, database=None, deadline=None,
                          print_blob=True)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if IN_CI else "dev")

# `make test-fast` runs `-m "not slow"`. A test is marked slow here when it needs a whole kit
# built (it asks for one of these fixtures, directly or through another), when its module is
# listed (every test in it builds or exports kits, or starts processes, a server or a
# browser), or when it is named below (it runs the command line in a child process, exports
# PNG sets, builds or verifies whole games in-process, plays recorded games again, or draws
# thousands of hypothesis cases). A name that no longer exists only makes
# the fast lane slower; nothing is ever left out of `make test`.
WHOLE_KIT_FIXTURES = {"kits", "kit", "kit_a4", "kit_letter", "build_kit", "previous_kits",
                      "previous", "built", "french_kit", "pdfs"}
SLOW_MODULES = {"test_render_parity.py", "test_kit_sheets.py", "test_preview.py",
                "test_install.py", "test_bench_whole.py", "test_watch.py", "test_exports.py",
                "test_parallel_build.py", "test_showcase.py", "test_pdf_lang.py",
                "test_verify_edits.py", "test_beyond_paper.py", "test_second_day.py",
                "test_studio.py", "test_studio_hostile.py", "test_png_page.py",
                "test_import_path.py"}
SLOW_TESTS = {
    "test_yaml_fast.py": {"test_generated_text_gives_what_the_pure_python_loader_gives"},
    "test_spreadsheets.py": {"test_tables_from_xlsx_sheets_build_into_the_kit",
                             "test_a_table_from_csv_builds_into_the_kit"},
    "test_sandbox.py": {"test_biggest_bombs_fail_cleanly_within_500_mb"},
    "test_outputs.py": {"test_each_reproduction_within_the_memory_cap",
                        "test_a_label_longer_than_a_file_name_is_shortened_keeping_its_index"},
    "test_tables.py": {"test_small_files_with_large_costs_fail_within_500_mb",
                       "test_the_scan_counts_what_the_parser_builds_across_chunks"},
    "test_svg_memory.py": {
        "test_a_use_fan_out_ends_in_one_line_naming_the_icon_within_500_mb"},
    "test_build_memory.py": {
        "test_a_template_that_draws_900_mb_of_paths_is_refused_at_its_line",
        "test_paths_within_the_face_limit_are_stopped_by_the_component_limit",
        "test_caching_a_large_component_does_not_double_the_builds_memory",
        "test_pictures_too_large_for_rgba_export_within_500_mb",
        "test_faces_kept_are_written_a_face_at_a_time_and_come_back",
        "test_a_16_bit_tiff_is_refused_by_its_decoded_size_within_500_mb"},
    "test_blame.py": {"test_mutated_data_never_blames_a_builtin_template",
                      "test_builtin_templates_draw_at_the_smallest_size_they_declare",
                      "test_reproductions_fit_in_500_mb"},
    "test_engine_files.py": {"test_reproductions_fit_in_500_mb",
                             "test_a_bad_engine_file_is_blamed_at_its_line"},
    "test_errors.py": {"test_cli_unknown_game_and_composition_failure_exit_2",
                       "test_cli_bad_file_exits_2_without_traceback"},
    "test_output_safety.py": {"test_options_out_of_range_through_the_real_cli",
                              "test_pngs_of_a_removed_card_do_not_survive",
                              "test_unwritable_output_through_the_real_cli_has_no_traceback",
                              "test_outputs_get_the_users_umask_mode"},
    "test_i18n.py": {"test_a_project_builds_in_french_with_its_catalogue",
                     "test_the_french_contents_sheet_fits_its_page",
                     "test_the_english_kit_is_the_same_with_or_without_lang"},
    "test_reference_doc.py": {"test_every_built_in_file_validates"},
    "test_preflight.py": {"test_every_kit_is_clean_under_strict"},
    "test_cache.py": {"test_warm_verify_replays_nothing_and_prints_the_same_findings"},
    "test_faces.py": {
        "test_piece_faces_keep_information_inside_the_safe_zone_and_text_readable"},
    "test_face_cache.py": {"test_faces_come_back_exactly_as_written",
                           "test_an_edited_template_is_drawn_again_even_at_the_same_size_and_time",
                           "test_an_edited_card_and_theme_are_drawn_again",
                           "test_a_built_in_kit_warm_is_byte_identical",
                           "test_a_rewrite_with_the_same_size_and_time_is_seen_in_a_new_process",
                           "test_an_edit_to_one_game_leaves_every_other_games_entries_alone"},
    "test_moving_target_content.py": {"test_the_example_follows_the_engine"},
    "test_movement_replay.py": {"test_greedy_games_are_unchanged"},
    "test_build_context.py": {"test_two_projects_on_two_threads_print_what_each_prints_alone"},
    "test_boxes_french.py": {"test_verify_in_french_finds_no_missing_text_and_every_rule_printed",
                             "test_every_catalogue_entry_is_used_by_the_kit"},
    "test_french_review.py": {"test_the_kits_say_where_their_rules_are",
                              "test_every_kit_has_french_names_notes_and_credit"},
    "test_movement_examples.py": {"test_a_turned_arrow_and_a_swapped_symbol_fail",
                                  "test_a_wrong_card_count_fails_naming_the_direction",
                                  "test_a_lost_starting_ring_fails_on_the_printed_board",
                                  "test_a_moved_closed_space_fails_naming_the_square"},
    "test_declarative.py": {"test_preview_shows_the_kit_without_simulation",
                            "test_game_without_rules_builds_and_verifies"},
    "test_rich_text.py": {"test_built_in_kits_lay_out_every_text_as_before"},
    "test_project_fonts.py": {
        "test_a_project_font_is_embedded_in_the_pdf_and_its_text_extractable"},
    "test_fonts.py": {"test_whatever_passes_the_checks_reportlab_can_embed",  # tests/hostile/
                      "test_each_reproduction_ends_in_one_line_within_500_mb",
                      "test_the_most_a_cmap_may_map_builds_within_500_mb",
                      "test_a_font_named_like_a_built_in_one_changes_no_later_kit",
                      "test_watch_sees_an_edited_font",
                      "test_a_restricted_licence_is_a_preflight_warning_not_an_error"},
    "test_project.py": {"test_the_projects_own_face_changes_what_is_printed",
                        "test_your_first_game_as_the_readme_says"},
    "test_watch_draft.py": {"test_a_failing_check_builds_marked_on_every_page_and_says_which",
                            "test_the_mark_is_in_the_kits_language_on_every_page",
                            "test_a_normal_build_never_carries_the_mark",
                            "test_watch_rebuilds_halfway_through_a_suit_then_clears_the_mark"},
    "test_standing_in.py": {"test_build_and_verify_in_a_project_folder_act_on_it"},
    "test_yaml_slips.py": {"test_a_designer_slip_in_the_project_fails_the_build_with_the_line"},
    "test_budget.py": {"test_every_built_in_kit_spends_under_a_tenth_of_the_budget",
                       "test_a_build_spends_the_same_cold_warm_and_in_french",
                       "test_the_reproductions_at_the_real_budget_stop_within_500_mb"},
}


# Over 0.6 s each in a fast-lane run (measured with `--durations=0`, summed over their
# cases): the fast lane keeps to 45 s on two cores by leaving these to `make test` too.
COSTLY_TESTS = {
    "test_architecture.py": {
        "test_no_module_imports_another_modules_private_names",
    },
    "test_blame.py": {
        "test_a_bad_value_is_blamed_at_its_line",
        "test_a_failing_translation_names_its_catalogue_line",
        "test_optional_rules_page_fields_left_out_or_null_build",
    },
    "test_budget.py": {
        "test_a_heavy_check_over_a_5000_row_csv_stops_naming_the_check",
        "test_a_heavy_template_over_many_cards_stops_naming_its_line",
    },
    "test_build_context.py": {
        "test_a_build_leaves_the_callers_state_as_it_was",
    },
    "test_corpus.py": {
        "test_theme_labels_are_text_not_templates",
    },
    "test_deal.py": {
        "test_hostile_numbers_are_one_line_and_exit_2",
        "test_monte_carlo_of_any_player_lies_within_its_interval_of_the_exact_value",
        "test_verify_shows_the_deal_questions_of_the_data_file",
    },
    "test_declarative.py": {
        "test_a_per_check_missing_a_combination_warns_and_complete_fails",
    },
    "test_eject.py": {
        "test_an_ejected_icon_is_the_projects_to_change",
    },
    "test_expressions.py": {
        "test_a_dotted_name_in_any_data",
        "test_a_dotted_name_resolves_as_jinja_resolves_it",
        "test_a_literal_is_read_as_jinja_reads_it",
        "test_an_expression_gives_what_jinja_gives",
        "test_names_used_are_the_undeclared_variables_jinja_finds",
    },
    "test_face_cache.py": {
        "test_a_french_kit_warm_draws_nothing_and_reports_the_same_untranslated_texts",
        "test_a_french_project_edit_of_its_catalogue_is_drawn_again",
    },
    "test_french_review.py": {
        "test_a_board_tile_keeps_the_footer_separator",
        "test_french_footers_name_the_backs_with_an_article_and_cut_nothing",
        "test_the_french_boxes_contents_sheet_reads_plainly",
    },
    "test_hostile_loading.py": {
        "test_a_user_theme_may_extend_a_theme_beside_it",
        "test_an_image_in_the_games_folder_is_drawn",
        "test_an_include_below_the_games_folder_is_read",
        "test_hostile_input_exits_2",
    },
    "test_i18n.py": {
        "test_verify_in_french_names_each_untranslated_text",
    },
    "test_i18n_columns.py": {
        "test_french_by_columns_prints_the_translation_and_english_never_shows_it",
    },
    "test_layout.py": {
        "test_packing_places_every_piece_once_inside_the_frame_without_overlap",
    },
    "test_listing.py": {
        "test_a_game_added_is_listed",
        "test_an_edit_to_an_included_file_is_a_miss",
        "test_an_edit_with_the_same_size_and_time_is_seen",
    },
    "test_movement_examples.py": {
        "test_a_board_template_that_stops_drawing_rings_fails",
        "test_verify_is_clean_and_says_its_basis",
    },
    "test_output_safety.py": {
        "test_an_option_out_of_range_exits_2_naming_it",
    },
    "test_outputs.py": {
        "test_a_linked_output_folder_is_refused_and_nothing_outside_changes",
    },
    "test_png_picture.py": {
        "test_a_large_picture_reduced_first_stays_within_two_levels",
    },
    "test_preflight.py": {
        "test_a_kit_without_a_target_says_so",
        "test_close_colours_without_second_cue_warn",
        "test_verify_reports_sheets_beside_bound_and_target",
        "test_verify_strict_fails_on_a_broken_template",
    },
    "test_preflight_colour.py": {
        "test_simulation_stays_in_gamut",
    },
    "test_project_engine.py": {
        "test_a_hostile_engine_is_never_imported_untrusted",
        "test_done_when",
        "test_no_rules_value_the_schema_accepts_leaves_the_project",
        "test_the_complete_example_of_docs_engines_plays",
    },
    "test_project_fonts.py": {
        "test_a_project_font_named_like_a_built_in_one_changes_no_other_build",
    },
    "test_reference_doc.py": {
        "test_wrong_files_fail",
    },
    "test_rich_text.py": {
        "test_turned_rich_text_is_the_upright_drawing_turned",
    },
    "test_sandbox.py": {
        "test_every_built_in_template_and_data_expression_compiles",
        "test_resource_bombs_fail_fast",
    },
    "test_simulate.py": {
        "test_greedy_counts_its_choices_without_changing_its_games",
    },
    "test_standing_in.py": {
        "test_each_command_with_no_game_takes_the_project_here",
    },
    "test_svg.py": {
        "test_a_hostile_svg_is_a_clear_error_naming_the_template_line_exit_2",
    },
    "test_table_joins.py": {
        "test_a_grid_boards_face_reads_the_grid_it_is_drawn_on",
    },
    "test_yaml_fast.py": {
        "test_discovery_then_load_parses_each_data_file_once",
        "test_repository_file_is_read_by_libyaml_exactly_as_before",
    },
}


def pytest_collection_modifyitems(config, items) -> None:
    slow = pytest.mark.slow
    for item in items:
        module = item.path.name
        if (module in SLOW_MODULES or item.originalname in SLOW_TESTS.get(module, ())
                or item.originalname in COSTLY_TESTS.get(module, ())
                or WHOLE_KIT_FIXTURES.intersection(getattr(item, "fixturenames", ()))):
            item.add_marker(slow)


def _build(out_dir: Path, game: str = GAME, **options) -> Built:
    from generator.orchestration.build import build_pdf
    from generator.orchestration.options import BuildOptions
    from tests.kits import Built

    opts = BuildOptions(out_dir=out_dir, **options)
    path, pages = build_pdf(game, opts)
    return Built(opts, path, pages)


@pytest.fixture(autouse=True)
def fresh_state() -> Iterator[None]:
    """Each test starts as a new process would: no project in use, no language session, no
    file versions (generator/core/context.py), no memo of an earlier test
    (generator/core/memo.py), the command line's --wait at its default (a process-wide
    setting of generator/core/atomic.py: a test running the CLI with --wait 0 left it at 0 for
    the tests after it), so no test passes or fails by the order the suite runs in.

    One exception: the YAML parses of texts an earlier test read (generator/core/yamlfile.py)
    are kept. A parse is a function of the text alone (its key is the whole text, every load
    constructs fresh values from it), so a test gets what a new process would; only parsing
    the built-in data again is spared (a tenth of a data-heavy test's time). A test that counts
    parses forgets them itself (``yamlfile.forget_parses()``)."""
    parses = list(yamlfile._MEMO.items())
    memo.forget_all()
    yamlfile._MEMO.update(parses)
    context.fresh()
    atomic.set_lock_timeout(atomic.DEFAULT_LOCK_TIMEOUT)
    yield


@pytest.fixture(autouse=True)
def no_safe_path_left(monkeypatch) -> Iterator[None]:
    """Starting a child sets PYTHONSAFEPATH=1 in this process's environment for good
    (generator/core/children.py); each test starts without it, as a new process would (a test
    of children must see that its own command set it), and it is taken away after: monkeypatch
    only undoes its own changes, not one the tool made during the test, so the teardown removes
    it too (else a later module's fixture starts ``python -c`` children without the checkout on
    their path)."""
    monkeypatch.delenv("PYTHONSAFEPATH", raising=False)
    monkeypatch.delenv("PNP_START_METHOD", raising=False)
    yield
    os.environ.pop("PYTHONSAFEPATH", None)


def _options_key(game: str, options: dict[str, Any]) -> str:
    """A folder name for one kit configuration: the game and the options that differ from
    BuildOptions' defaults, in a fixed order (so kits(g) and kits(g, paper="a4") are one)."""
    from generator.orchestration.options import BuildOptions

    opts, default = BuildOptions(**options), BuildOptions()
    changed = [f"{f.name}={getattr(opts, f.name)}" for f in fields(BuildOptions)
               if f.name != "out_dir" and getattr(opts, f.name) != getattr(default, f.name)]
    return "-".join([game, *changed]).replace("/", "_")


@contextmanager
def _locked(lock: Path) -> Iterator[None]:
    """Only one process of this run (pytest-xdist worker) at a time past this point."""
    with lock.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


@pytest.fixture(scope="session")
def run_tmp(tmp_path_factory) -> Path:
    """A folder of this test run shared by all its processes: with pytest-xdist each worker
    has its own base folder, and their common parent is the run's."""
    base = tmp_path_factory.getbasetemp()
    folder = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "shared"
    folder.mkdir(exist_ok=True)
    return folder


def _once(run_tmp: Path, name: str, make: Callable[[Path], Any]) -> tuple[Path, str]:
    """The folder ``name`` of the run, filled by ``make(folder)`` once per test run by
    whichever xdist worker asks first (the others wait, then reuse it), and the JSON text that
    ``make``'s result was saved as."""
    folder, done = run_tmp / name, run_tmp / f"{name}.done.json"
    done.parent.mkdir(parents=True, exist_ok=True)
    with _locked(run_tmp / f"{name}.lock"):
        if not done.exists():
            if folder.exists():  # left half-made by a build that failed
                shutil.rmtree(folder)
            folder.mkdir(parents=True)
            done.write_text(json.dumps(make(folder)), encoding="utf-8")
        return folder, done.read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def run_once(run_tmp) -> Callable[[str, Callable[[Path], Any]], tuple[Path, Any]]:
    """``run_once(name, make)``: a folder of the run filled by ``make(folder)`` once per test
    run, by whichever xdist worker asks first (the others wait, then reuse it); returns the
    folder and what ``make`` returned (JSON). For outputs that tests only read or copy."""
    def get(name: str, make: Callable[[Path], Any]) -> tuple[Path, Any]:
        folder, text = _once(run_tmp, name, make)
        return folder, json.loads(text)
    return get


@pytest.fixture(scope="session")
def kits(run_once) -> Callable[..., Built]:
    """``kits(game, paper="a4", flip="long", layout="sheets", **options)``: that kit (any
    BuildOptions), built once per test run on first use, whichever xdist worker asks first; the
    others wait for it and read the same files. For tests that only read a kit: a test that
    writes into its folder or must build anew (byte-identical rebuilds, caches) builds its own.
    """
    from generator.orchestration.build import build_pdf
    from generator.orchestration.options import BuildOptions
    from tests.kits import Built

    @cache
    def built(key: str, game: str, options: tuple[tuple[str, Any], ...]) -> Built:
        def make(folder: Path) -> dict[str, Any]:
            path, pages = build_pdf(game, BuildOptions(out_dir=folder, **dict(options)))
            return {"pdf": str(path), "pages": pages}

        folder, record = run_once(f"kits/{key}", make)
        return Built(BuildOptions(out_dir=folder, **dict(options)), Path(record["pdf"]),
                     record["pages"])

    def get(game: str = GAME, paper: str = "a4", flip: str = "long", layout: str = "sheets",
            **options: Any) -> Built:
        options = {"paper": paper, "flip": flip, "layout": layout, **options}
        return built(_options_key(game, options), game, tuple(sorted(options.items())))
    return get


@pytest.fixture(scope="session", autouse=True)
def pnp_cache_dir(run_tmp) -> Iterator[Path]:
    """The on-disk caches (generator/core/cache.py: rules results and drawn faces) in a folder
    of this test run's own, so tests never write to $HOME and never read a cache another run
    left. The run's xdist workers share it, as `make pdf`'s build processes share theirs."""
    old = os.environ.get("PNP_CACHE_DIR")
    folder = run_tmp / "pnp-cache"
    folder.mkdir(exist_ok=True)
    os.environ["PNP_CACHE_DIR"] = str(folder)
    yield folder
    if old is None:
        os.environ.pop("PNP_CACHE_DIR", None)
    else:
        os.environ["PNP_CACHE_DIR"] = old


@pytest.fixture(scope="session", autouse=True)
def pnp_config_dir(run_tmp) -> Iterator[Path]:
    """The user's config folder (generator/core/trust.py: the trusted project folders) in a
    folder of this test run's own: no test reads or writes the trust file in $HOME, and a
    ``--trust`` left over by a test (PNP_TRUST_RUN) is never inherited."""
    saved = {name: os.environ.get(name) for name in ("PNP_CONFIG_DIR", "PNP_TRUST_RUN")}
    folder = run_tmp / "pnp-config"
    folder.mkdir(exist_ok=True)
    os.environ["PNP_CONFIG_DIR"] = str(folder)
    os.environ.pop("PNP_TRUST_RUN", None)
    yield folder
    for name, value in saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


# The trust file's folder: the project-engine and trust tests each ask trust afresh.
@pytest.fixture
def config(tmp_path, monkeypatch) -> Path:
    """A config folder of this test's own, and a HOME that must stay empty."""
    folder = tmp_path / "config"
    monkeypatch.setenv("PNP_CONFIG_DIR", str(folder))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("PNP_TRUST_RUN", raising=False)
    return folder


@pytest.fixture
def fresh_cache(tmp_path, monkeypatch) -> Path:
    """An empty, enabled cache folder for one test (PNP_CACHE unset whatever the shell says)."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("PNP_CACHE_DIR", str(folder))
    monkeypatch.delenv("PNP_CACHE", raising=False)
    return folder


@pytest.fixture(scope="session")
def pdf_read(run_tmp) -> Iterator[Callable[..., list[Any]]]:
    """``pdf_read(kind, pdf, pages, *args, **options)``: ``tests/pdfread.py``'s extraction
    ``kind`` of each page of ``pages`` (numbers from 1; None: every page), once per test run
    for each distinct file content, page and arguments, whichever xdist worker asks first
    (reading a kit back, not building it, is the slow part: pdfminer interprets every
    operator of every form). The file is opened only for pages not read yet, and the last
    two documents are kept open (a test reading a kit page by page opens it once); each call
    gets its own copy. Tests use the fixtures below, one per kind."""
    from tests import pdfread

    read_before: dict[tuple[str, int], str] = {}
    # The documents last opened, kept open: a test reads a kit a page at a time, and opening
    # one again parses its fonts again (most of the cost of reading a page's furniture).
    open_docs: dict[tuple[str, str], list[Any]] = {}
    KEEP_OPEN = 2

    @cache
    def count(digest: str, data: bytes) -> int:
        return pdfread.page_count(data)

    def document(digest: str, data: bytes, kind: str) -> list[Any]:
        key = (digest, kind)
        if key not in open_docs:
            while len(open_docs) >= KEEP_OPEN:
                open_docs.pop(next(iter(open_docs)))[1].close()
            stack = ExitStack()
            open_docs[key] = [stack.enter_context(pdfread.opened(data, kind)), stack]
        open_docs[key] = open_docs.pop(key)  # the most recent last
        return open_docs[key][0]

    def read(kind: str, pdf: Path, pages: Iterable[int] | None, *args: Any,
             **options: Any) -> list[Any]:
        data = Path(pdf).read_bytes()  # read once: the file may be replaced meanwhile
        digest = hashlib.sha256(data).hexdigest()
        arguments = json.dumps([args, options], sort_keys=True)
        name = f"pdf/{digest}/{kind}-{hashlib.sha256(arguments.encode()).hexdigest()[:16]}"

        def extract(n: int) -> Any:
            page = document(digest, data, kind)[n - 1]
            try:
                return getattr(pdfread, kind)(page, *args, **options)
            finally:
                pdfread.done(page)

        found = []
        for n in range(1, count(digest, data) + 1) if pages is None else pages:
            if (name, n) not in read_before:
                read_before[name, n] = _once(run_tmp, f"{name}/{n}",
                                             lambda folder, n=n: extract(n))[1]
            found.append(json.loads(read_before[name, n]))
        return found
    yield read
    for _, stack in open_docs.values():
        stack.close()


@pytest.fixture(scope="session")
def page_texts(pdf_read) -> Callable[..., tuple[str, ...]]:
    """``page_texts(pdf, pages=None, **options)``: the ``extract_text(**options)``
    (pdfplumber) of each page of ``pages`` (numbers from 1), or of every page."""
    return lambda pdf, pages=None, **options: tuple(pdf_read("text", pdf, pages, **options))


@pytest.fixture(scope="session")
def furniture_texts(pdf_read) -> Callable[..., tuple[str, ...]]:
    """``furniture_texts(pdf, pages=None)``: like ``page_texts``, of what each page draws
    itself, outside any form: a kit page's footer and other furniture, not the faces of its
    pieces (each face is a form). A fraction of the reading."""
    return lambda pdf, pages=None: tuple(pdf_read("furniture_text", pdf, pages))


@pytest.fixture(scope="session")
def page_words(pdf_read) -> Callable[..., list[dict[str, Any]]]:
    """``page_words(pdf, page, **options)``: page ``page``'s (from 1) ``extract_words``."""
    return lambda pdf, page, **options: pdf_read("words", pdf, [page], **options)[0]


@pytest.fixture(scope="session")
def page_chars(pdf_read) -> Callable[[Path, int], list[dict[str, Any]]]:
    """``page_chars(pdf, page)``: page ``page``'s (from 1) ``chars``."""
    return lambda pdf, page: pdf_read("chars", pdf, [page])[0]


@pytest.fixture(scope="session")
def crop_texts(pdf_read) -> Callable[..., list[str]]:
    """``crop_texts(pdf, page, boxes, within=True, of_page=False)``: the text wholly inside
    each box (x0, top, x1, bottom in points; ``of_page``: in fractions of the page's width and
    height) of page ``page`` (``within_bbox``), or cut out by it (``within=False``: ``crop``).
    """
    return lambda pdf, page, boxes, within=True, of_page=False: pdf_read(
        "crop_texts", pdf, [page], [list(b) for b in boxes], within=within, of_page=of_page)[0]


@pytest.fixture(scope="session")
def page_shapes(pdf_read) -> Callable[..., dict[str, list[dict[str, Any]]]]:
    """``page_shapes(pdf, page, furniture=False)``: page ``page``'s ``{"rects": ...,
    "lines": ...}``; with ``furniture``, only those drawn on the page itself, outside any form
    (a kit page's cut marks and hairlines, not the art of its pieces' faces)."""
    return lambda pdf, page, furniture=False: pdf_read(
        "furniture_shapes" if furniture else "shapes", pdf, [page])[0]


@pytest.fixture(scope="session")
def page_clips(pdf_read) -> Callable[[Path, int], list[dict[str, Any]]]:
    """``page_clips(pdf, page)``: the clipping paths page ``page`` (from 1) sets itself
    (``pdfread.clips``: bounding box in points from the top-left, and whether curved)."""
    return lambda pdf, page: pdf_read("clips", pdf, [page])[0]


@pytest.fixture(scope="session")
def pypdf_text(pdf_read) -> Callable[[Path, int], str]:
    """``pypdf_text(pdf, page)``: page ``page``'s (from 1) text as pypdf extracts it."""
    return lambda pdf, page: pdf_read("pypdf_text", pdf, [page])[0]


@pytest.fixture(scope="session")
def kit_a4(kits) -> Built:
    return kits(GAME, paper="a4")


@pytest.fixture(scope="session")
def kit_letter(kits) -> Built:
    return kits(GAME, paper="letter")


@pytest.fixture(scope="session", params=["a4", "letter"])
def kit(request, kit_a4, kit_letter) -> Built:
    """The kit on each paper size in turn."""
    return {"a4": kit_a4, "letter": kit_letter}[request.param]


@pytest.fixture(scope="session")
def build_kit(tmp_path_factory):
    """Build the kit with other options into a fresh folder (for one-off comparisons)."""
    def build(**options) -> Built:
        return _build(tmp_path_factory.mktemp("kit"), **options)
    return build


@pytest.fixture(scope="session")
def moving_target_source() -> str:
    return MOVING_TARGET_YAML.read_text(encoding="utf-8")


@pytest.fixture
def game_file(tmp_path, moving_target_source):
    """Write a variant of the Moving Target data file; ``replace`` pairs must each match once.

    Returns the new file's path and the 1-based line number of each replacement.
    """
    def write(*replace: tuple[str, str], name: str = "game.yaml") -> tuple[Path, list[int]]:
        text = moving_target_source
        lines = []
        for old, new in replace:
            assert text.count(old) == 1, f"{old!r} must occur exactly once"
            lines.append(text[: text.index(old)].count("\n") + 1)
            text = text.replace(old, new)
        file = tmp_path / name
        file.write_text(text, encoding="utf-8")
        return file, lines
    return write


@pytest.fixture
def in_tmp(tmp_path, monkeypatch) -> Path:
    """Run in a fresh temporary folder (each test starts from the built-ins: fresh_state)."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture(scope="session")
def seed_text() -> Callable[[str], str]:
    """The text of one seed file of ../shared/seeds. Absent, the test is skipped on a
    developer's checkout, but fails under CI=1: CI is given the seeds, so their absence there is
    a broken set-up, not a reason to pass."""
    def read(name: str) -> str:
        seed = SEEDS / name
        if not seed.is_file():
            message = f"the seed texts are not beside this checkout ({seed})"
            if IN_CI:
                pytest.fail(f"{message}; CI=1 needs them", pytrace=False)
            pytest.skip(message)
        return seed.read_text(encoding="utf-8")
    return read


def pytest_terminal_summary(terminalreporter, config) -> None:
    """Print pytest-randomly's seed at the end, where a failure is read (`-q` hides the header
    that names it): a failure that depends on the order is repeated with the same seed."""
    seed = getattr(config.option, "randomly_seed", None)
    if isinstance(seed, int) and getattr(config.option, "randomly_reorganize", True):
        terminalreporter.write_line(
            f"random order: repeat it with --randomly-seed={seed} "
            f"(or -p no:randomly for file order)")
