"""The project you stand in (issue 27, item 3): in a project folder, ``pnp build``, ``verify``,
``png``, ``preview`` and ``watch`` with no game named act on that project, not the built-in
games; elsewhere they act on every built-in game as before. ``pnp list [DIR]`` lists the
projects in DIR (or here) and the built-in games. Driven through the command line from the
folder a designer would be in (monkeypatch.chdir)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.core import folders, paths
from generator.frontends import app
from generator.frontends import watch as watcher
from generator.frontends.cli import main
from tests.designer import run


@pytest.fixture
def builtin_output(tmp_path, monkeypatch) -> Path:
    """The built-in games' output folder, moved aside: nothing may be written there."""
    folder = tmp_path / "builtin-output"
    monkeypatch.setattr(paths, "OUTPUT", folder)
    return folder


@pytest.fixture
def mygame(in_tmp, capsys) -> Path:
    assert run(capsys, "init", "mygame")[0] == 0
    return in_tmp / "mygame"


@pytest.mark.slow
def test_build_and_verify_in_a_project_folder_act_on_it(mygame, builtin_output, monkeypatch,
                                                        capsys):
    monkeypatch.chdir(mygame)
    code, out, err = run(capsys, "build")
    assert (code, err) == (0, "")
    assert out.count(" pages -> ") == 1 and "8 pages" in out
    assert (mygame / "output" / "mygame" / "mygame.pdf").stat().st_size > 10_000
    assert not builtin_output.exists()
    code, out, _ = run(capsys, "verify")
    assert code == 0
    assert "Mygame (mygame): OK" in out and "Moving Target" not in out


class Handed(Exception):
    """Raised by the stubs below once a command has said what it acts on."""


@pytest.mark.slow
@pytest.mark.parametrize("command", ["build", "verify", "png", "preview", "watch"])
def test_each_command_with_no_game_takes_the_project_here(mygame, builtin_output, monkeypatch,
                                                          capsys, command):
    """What each command is handed (the build itself is the test above's): the project's
    folder in it; outside it (its parent, or a folder inside the project) every built-in
    game, as before (watch: a game must be named)."""
    def handed(given: list[str], *_: object) -> None:
        raise Handed(list(given))

    monkeypatch.setattr(app, "games", handed)
    monkeypatch.setattr(watcher, "main", handed)
    for where, expected in ((mygame, [str(mygame)]), (mygame.parent, []),
                            (mygame / "faces", [])):
        monkeypatch.chdir(where)
        if command == "watch" and not expected:
            assert main([command]) == 2
            continue
        with pytest.raises(Handed) as info:
            main([command])
        assert info.value.args[0] == expected, where
    assert not builtin_output.exists()


def test_watch_outside_a_project_still_needs_a_game(in_tmp, capsys):
    code, _, err = run(capsys, "watch")
    assert code == 2 and "watch needs a game id" in err and "project folder" in err


def test_the_built_in_games_folder_is_not_a_project(monkeypatch):
    monkeypatch.chdir(paths.CARD_DATA)
    assert folders.here() == []


def test_a_project_here_writes_its_own_output_not_the_built_in_one(mygame, builtin_output,
                                                                   monkeypatch):
    monkeypatch.chdir(mygame)
    assert app.output_folder(app.here()) == mygame.resolve() / "output"


def test_list_shows_the_projects_here_and_the_built_in_games(mygame, fresh_cache, capsys):
    (mygame.parent / "notes").mkdir()  # a folder without a game is not listed
    assert run(capsys, "init", "second")[0] == 0
    code, out, err = run(capsys, "list")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "projects:"
    assert lines[1] == "mygame/ (mygame): Mygame, 2-4 players: Cards (18), Score tokens (18)"
    assert lines[2].startswith("second/ (second): Second")
    assert lines[3] == "built-in games:"
    assert re.search(r"^moving-target: Moving Target", out, re.M)
    assert run(capsys, "list")[1] == out  # kept (generator/orchestration/listing.py)


def test_list_dir_names_a_project_or_a_folder_of_projects(mygame, fresh_cache, monkeypatch,
                                                          capsys):
    code, out, _ = run(capsys, "list", "mygame")
    assert code == 0 and out.splitlines()[1].startswith("mygame/ (mygame): Mygame")
    monkeypatch.chdir(mygame)
    code, out, _ = run(capsys, "list", ".")
    assert code == 0 and out.splitlines()[1].startswith("./ (mygame): Mygame")
    code, out, _ = run(capsys, "list")
    assert code == 0 and out.splitlines()[1].startswith("./ (mygame): Mygame")


def test_list_outside_any_project_lists_the_built_in_games_as_before(in_tmp, capsys):
    code, out, _ = run(capsys, "list")
    assert code == 0 and out.splitlines()[0].startswith("monster-day: Monster Day")
    assert "projects:" not in out


def test_list_reports_a_project_that_does_not_load_and_lists_the_rest(mygame, fresh_cache,
                                                                     capsys):
    assert run(capsys, "init", "broken")[0] == 0
    game = mygame.parent / "broken" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("players: [2, 4]",
                                                             "players: {2, 4"),
                    encoding="utf-8")
    code, out, err = run(capsys, "list")
    assert code == 2
    assert "mygame/ (mygame): Mygame" in out and "moving-target: Moving Target" in out
    assert err.count("\n") == 1 and err.startswith("error: ") and "game.yaml:" in err


def test_list_of_a_folder_that_is_not_there_is_one_error(in_tmp, capsys):
    code, out, err = run(capsys, "list", "nowhere")
    assert (code, out) == (2, "") and err == "error: nowhere is not a folder (pnp list DIR " \
                                             "lists the projects in DIR)\n"


def test_a_folder_of_several_games_is_no_project_here(mygame, fresh_cache, monkeypatch,
                                                      capsys):
    """Two game files side by side: named, the folder is refused naming both
    (tests/test_project.py); unnamed, it is passed by (every built-in game, not listed)."""
    text = (mygame / "game.yaml").read_text(encoding="utf-8")
    (mygame / "game.yaml").rename(mygame / "one.yaml")
    (mygame / "two.yaml").write_text(text.replace("id: mygame", "id: two"), encoding="utf-8")
    monkeypatch.chdir(mygame)
    assert folders.here() == []
    code, out, _ = run(capsys, "list", "..")
    assert code == 0 and "projects:" not in out
