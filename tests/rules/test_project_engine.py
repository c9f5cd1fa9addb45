"""A project's own rules engine (``rules: rules.py``) behind the trust gate (issue 26).

The trust file (generator/core/trust.py), the one loader (generator/rules/__init__.py) and its
confinement, what an untrusted project builds and says, that a hostile ``rules.py`` is never
imported by build, verify, watch or preview, and the faults of a trusted engine
(generator/rules/guard.py), each one message naming the project's file and the seed."""
from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import threading
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator import rules
from generator.core import trust
from generator.data import load_game
from generator.data.files import project
from generator.data.tables.schema import PROJECT_RULES, RULES_PATTERN
from generator.frontends.watch import build_with, find_target, watch
from generator.orchestration.options import BuildOptions
from generator.rules.base import RulesEngine
from tests.designer import run, starter

HOSTILE = '''import pathlib
pathlib.Path({marker!r}).write_text("imported")
'''


def append(folder: Path, code: str) -> int:
    """Add ``code`` to the project's rules.py (a later def replaces an earlier one); the line
    of its first ``# HERE`` mark."""
    file = folder / "rules.py"
    text = file.read_text(encoding="utf-8")
    file.write_text(text + "\n" + code, encoding="utf-8")
    lines = (text + "\n" + code).splitlines()
    return next((i + 1 for i, line in enumerate(lines) if "# HERE" in line), 0)


# -- the trust file --------------------------------------------------------------------------

def test_trust_list_and_revoke_keep_the_record_in_the_config_folder(in_tmp, config, capsys):
    starter(in_tmp / "g")
    assert run(capsys, "trust", "--list")[1] == "no trusted folders\n"
    code, out, _ = run(capsys, "trust", "g")
    assert code == 0 and str((in_tmp / "g").resolve()) in out
    data = json.loads((config / "trust.json").read_text(encoding="utf-8"))
    assert [e["path"] for e in data["folders"]] == [os.path.realpath(in_tmp / "g")]
    assert not (in_tmp / "home").exists()  # nothing in the user's real home
    assert not list(config.glob(".*"))  # written atomically: no temporary file left
    assert run(capsys, "trust", "--list")[1].strip() == (
        os.path.realpath(in_tmp / "g") + "  (trusted)")
    assert trust.trusted(in_tmp / "g")
    code, out, _ = run(capsys, "trust", "--revoke", "g")
    assert code == 0 and "no longer trusted" in out and not trust.trusted(in_tmp / "g")
    assert "was not trusted" in run(capsys, "trust", "--revoke", "g")[1]
    assert run(capsys, "trust")[0] == 2  # no folder named


def _trust_one(folder: str) -> None:
    trust.trust(Path(folder))


def test_folders_trusted_at_once_are_all_recorded(in_tmp, config):
    """Eight `pnp trust` processes at once: each reads, changes and writes the file under a
    lock, so none loses another's folder."""
    import multiprocessing

    folders = [in_tmp / f"p{n}" for n in range(8)]
    for folder in folders:
        folder.mkdir()
    with multiprocessing.get_context("fork").Pool(4) as pool:
        pool.map(_trust_one, [str(f) for f in folders])
    assert sorted(e.path for e in trust.entries()) == sorted(os.path.realpath(f)
                                                             for f in folders)


def test_a_link_a_copy_or_a_replaced_folder_is_not_trusted(in_tmp, config, capsys):
    starter(in_tmp / "g")
    assert run(capsys, "trust", "g")[0] == 0
    (in_tmp / "link").symlink_to(in_tmp / "g", target_is_directory=True)
    shutil.copytree(in_tmp / "g", in_tmp / "copy")
    for name in ("link", "copy"):
        code, _, err = run(capsys, "simulate", name, "--n", "5", "--players", "2")
        assert code == 2 and f"pnp trust {name}" in err and "Traceback" not in err, name
    code, _, err = run(capsys, "trust", "link")
    assert code == 2 and "symbolic link" in err
    # the trusted folder replaced by another (an archive extracted over it) whose rules.py
    # differs: changed since trusted (tests/hostile/test_trust_code.py: whatever its inode)
    (in_tmp / "g").rename(in_tmp / "old")
    shutil.copytree(in_tmp / "copy", in_tmp / "g")
    append(in_tmp / "g", "STRANGER = 1\n")
    assert trust.state(in_tmp / "g") == trust.CHANGED
    assert "changed since trusted" in run(capsys, "trust", "--list")[1]
    code, _, err = run(capsys, "simulate", "g", "--n", "5", "--players", "2")
    assert code == 2 and "changed since you trusted it" in err, err
    shutil.rmtree(in_tmp / "g")
    assert "(gone: not trusted)" in run(capsys, "trust", "--list")[1]


def test_trust_for_one_run(in_tmp, config, capsys):
    starter(in_tmp / "g")
    code, out, err = run(capsys, "simulate", "g", "--n", "5", "--players", "2", "--trust")
    assert code == 0, err
    assert "seat 1:" in out
    assert "PNP_TRUST_RUN" not in os.environ and not trust.trusted(in_tmp / "g")
    assert not (config / "trust.json").exists()


# -- the loader ------------------------------------------------------------------------------

@pytest.mark.parametrize("value", ["../rules.py", "/tmp/rules.py", "rules.txt", "a/../b.py"])
def test_a_rules_path_outside_the_project_is_refused_at_its_line(in_tmp, config, capsys,
                                                                 value):
    folder = starter(in_tmp / "g")
    data = folder / "game.yaml"
    data.write_text(data.read_text(encoding="utf-8").replace("rules: rules.py",
                                                             f"rules: {value}"), "utf-8")
    code, _, err = run(capsys, "verify", "g")
    assert code == 2 and re.search(r"game\.yaml:\d+: rules:", err), err
    assert "Traceback" not in err


def test_a_rules_file_that_is_a_link_out_of_the_project_is_refused(in_tmp, config, capsys):
    folder = starter(in_tmp / "g")
    outside = in_tmp / "elsewhere.py"
    (folder / "rules.py").rename(outside)
    (folder / "rules.py").symlink_to(outside)
    run(capsys, "trust", "g")
    code, _, err = run(capsys, "simulate", "g", "--n", "5")
    assert code == 2 and "outside" in err and "rules" in err, err


def test_a_package_engine_and_two_projects_with_one_file_name(in_tmp, config, capsys):
    one, two = starter(in_tmp / "one"), starter(in_tmp / "two")
    package = two / "engine"
    package.mkdir()
    (two / "rules.py").rename(package / "play.py")
    (package / "__init__.py").write_text("from .play import *  # noqa\n"
                                         "from .play import POINTS, State  # noqa\n", "utf-8")
    data = two / "game.yaml"
    data.write_text(data.read_text(encoding="utf-8").replace("rules: rules.py",
                                                             "rules: engine/"), "utf-8")
    append(one, "SOURCE = 'one'\n")
    for name in ("one", "two"):
        run(capsys, "trust", name)
    a, b = (rules.engine(load_game(str(f))) for f in (one, two))
    assert isinstance(a, RulesEngine) and isinstance(b, RulesEngine)
    assert a.__name__ != b.__name__ and a.__name__.startswith("pnp_project_")
    assert a.module.SOURCE == "one" and not hasattr(b.module, "SOURCE")
    for name in ("one", "two"):
        code, out, err = run(capsys, "simulate", name, "--n", "20", "--players", "3",
                             "--jobs", "2")
        assert code == 0 and "seat 3:" in out, err


# -- an untrusted project: everything that needs no code, said once ---------------------------

@pytest.mark.slow
def test_a_hostile_engine_is_never_imported_untrusted(in_tmp, config, capsys):
    folder = starter(in_tmp / "g")
    marker = in_tmp / "imported.txt"
    (folder / "rules.py").write_text(HOSTILE.format(marker=str(marker)), encoding="utf-8")

    code, out, err = run(capsys, "build", "g")
    assert code == 0, err
    assert err.count("note: ") == 1 and "pnp trust g" in err and "rules.py" in err
    assert (folder / "output" / "g" / "g.pdf").is_file()
    code, out, err = run(capsys, "verify", "g")
    assert code == 0 and err.count("pnp trust g") == 1, out + err
    code, _, err = run(capsys, "simulate", "g")
    assert code == 2 and "pnp trust g" in err and "--trust" in err
    code, _, err = run(capsys, "verify", "--lang", "fr", "g")
    assert code == 0 and "n'est pas approuvé" in err
    assert not marker.exists()

    # watch: the first build and one rebuild after a save
    lines: list[str] = []
    stop = threading.Event()
    thread = threading.Thread(target=watch, daemon=True, kwargs={
        "targets": [find_target("g")], "stop_event": stop, "report": lines.append,
        "rebuild": build_with(BuildOptions(out_dir=folder / "output"))})
    thread.start()
    try:
        _wait(lambda: any(ln.startswith("watching") for ln in list(lines)))
        data = folder / "game.yaml"
        edited = data.read_text(encoding="utf-8").replace("name: Dawn", "name: Sunrise")

        def save() -> None:
            data.write_text(edited, encoding="utf-8")

        save()
        _wait(lambda: any(ln.startswith("rebuilt") for ln in list(lines)), again=save)
    finally:
        stop.set()
        thread.join(timeout=30)
    assert not any(ln.startswith("error") for ln in lines), lines
    assert not marker.exists()

    code, _, err = run(capsys, "preview", "g", "--n", "5")
    assert code == 0, err
    page = (folder / "output" / "preview" / "index.html").read_text(encoding="utf-8")
    assert "pnp trust g" in page
    assert not marker.exists()
    # the proof is a proof: trusted, the file runs on import (and is no engine)
    code, _, err = run(capsys, "simulate", "g", "--trust")
    assert code == 2 and "not a rules engine" in err and marker.exists()


def _wait(condition, again=None, timeout: float = 120.0) -> None:
    import time

    start = last = time.monotonic()
    while not condition():
        assert time.monotonic() - start < timeout, "the watcher did not get there"
        if again is not None and time.monotonic() - last > 8:
            again()
            last = time.monotonic()
        time.sleep(0.1)


# -- a trusted engine's faults: one message, the file, the line, the seed ---------------------

def _fault(capsys, *argv: str) -> str:
    code, _, err = run(capsys, "simulate", "g", "--n", "20", "--players", "2", "--trust",
                       *argv)
    assert code == 2, err
    assert "Traceback" not in err and err.count("error: ") == 1 and len(err.splitlines()) == 1
    return err


def test_an_exception_names_the_file_line_hook_and_seed(in_tmp, config, capsys):
    folder = starter(in_tmp / "g")
    line = append(folder, '''_legal = legal_actions


def legal_actions(state):
    if state.turn == 3:
        return 1 // 0  # HERE
    return _legal(state)
''')
    err = _fault(capsys)
    assert re.search(rf"g/rules\.py:{line}: legal_actions: raised ZeroDivisionError: "
                     r"integer division or modulo by zero \(game seed \d+, 2 players: "
                     r"pnp simulate g --players 2 --replay \d+ --trust replays it\)", err), err
    seed = int(re.search(r"game seed (\d+)", err)[1])
    with trust.for_run([folder]), pytest.raises(rules.EngineFault):
        engine = rules.load(rules.project_engine(load_game("g")))
        state = engine.new_game(2, seed, load_game("g").data)
        while True:  # the seed replays the fault
            state = engine.apply(state, engine.legal_actions(state)[0])


def test_an_illegal_action_is_named(in_tmp, config, capsys):
    append(starter(in_tmp / "g"), "def greedy_action(state):\n    return 99\n")
    err = _fault(capsys, "--policy", "greedy")
    assert "g/rules.py: greedy_action: chose 99, not a legal action" in err
    assert "game seed" in err


def test_an_illegal_action_is_named_by_its_label_and_index(in_tmp, config, capsys):
    # a card of another player's hand: the starter's describe() names it
    append(starter(in_tmp / "g"), """def greedy_action(state):
    return next(c for c in range(len(state.cards)) if c not in legal_actions(state))
""")
    err = _fault(capsys, "--policy", "greedy")
    found = re.search(r"greedy_action: chose (\d+) '([\w ]+)', not a legal action \(legal: "
                      r"((\d+) '([\w ]+)'(, )?)+\)", err)
    assert found, err
    names = [row["name"] for row in load_game("g").data["tables"]["cards"]]
    assert found[2] == names[int(found[1])]  # the label is the card the index is
    legal = re.findall(r"(\d+) '([\w ]+)'", err[err.index("(legal: "):])
    assert legal and all(names[int(i)] == name for i, name in legal)


def _replayed(capsys, err: str) -> str:
    """Run the replay command a fault names; its own error (one line, exit 2)."""
    command = re.search(r"players: (pnp simulate .+) replays it\)$", err.strip())
    assert command, err
    words = shlex.split(command[1])
    assert words[:2] == ["pnp", "simulate"]
    code, _, again = run(capsys, *words[1:])
    assert code == 2 and "Traceback" not in again, again
    return again


def test_the_replay_hint_is_a_command_that_replays_the_game(in_tmp, config, capsys):
    # a fault in a later game of the run (not the first, which is played twice first), of
    # one set-up of two, under the greedy policy: the hint names all of it, and replays it
    folder = starter(in_tmp / "g")
    append(folder, """def variants(data):
    return [("easy", data), ("hard rules", {**data, "hard": True})]


_greedy = greedy_action


def greedy_action(state):
    if getattr(state, "hard", False) and state.rng.random() < 0.02:
        raise KeyError("hard")  # HERE
    return _greedy(state)


_new = new_game


def new_game(players, seed, data=None):
    state = _new(players, seed, data)
    state.hard = bool((data or {}).get("hard")) and seed % 3 == 1
    return state
""")
    assert run(capsys, "trust", "g")[0] == 0
    code, _, err = run(capsys, "simulate", "g", "--n", "40", "--players", "3", "--policy",
                       "greedy")
    assert code == 2 and len(err.splitlines()) == 1, err
    assert "--variant 'hard rules' --policy greedy --replay" in err
    assert "--trust" not in err  # trusted for good: the replay needs no --trust
    assert _replayed(capsys, err) == err
    # a run trusted for itself alone is replayed with --trust
    assert run(capsys, "trust", "--revoke", "g")[0] == 0
    err = _fault(capsys, "--policy", "greedy", "--players", "3")
    assert err.rstrip().endswith("--trust replays it)")
    assert _replayed(capsys, err) == err
    code, out, _ = run(capsys, "simulate", "g", "--players", "2", "--variant", "easy",
                       "--replay", "5", "--trust")
    assert code == 0 and re.search(r"game seed 5 \(random policy\): 9 turns, ", out), out
    code, _, err = run(capsys, "simulate", "g", "--variant", "hard", "--trust")
    assert code == 2 and "--variant 'hard': g has the set-ups 'easy', 'hard rules'" in err


def test_a_call_that_never_returns_is_stopped_by_its_budget(in_tmp, config, capsys,
                                                            monkeypatch):
    from generator.rules import guard

    monkeypatch.setattr(guard, "CALL_BUDGET", 20_000)  # the real one takes seconds
    folder = starter(in_tmp / "g")
    line = append(folder, """_legal = legal_actions


def legal_actions(state):
    if state.turn == 4:
        while True:  # HERE
            try:
                pass
            except Exception:
                pass  # an engine's own except cannot swallow the stop
    return _legal(state)
""")
    for jobs in ("1", "2"):  # the first game, played twice before any worker starts
        err = _fault(capsys, "--jobs", jobs)
        stopped = re.search(r"g/rules\.py:(\d+): ", err)
        assert stopped and line <= int(stopped[1]) <= line + 4, err  # a line of the loop
        assert re.search(r"g/rules\.py:\d+: legal_actions: did not return after 20,000 "
                         r"lines of the engine's code: a loop that never ends\? \(game seed "
                         r"\d+, 2 players: pnp simulate g --players 2 --replay \d+ --trust "
                         r"replays it\)", err), err


def test_the_starter_reports_the_tricks_played_as_its_length(in_tmp, config, capsys):
    starter(in_tmp / "g")
    code, out, err = run(capsys, "simulate", "g", "--n", "30", "--trust")
    assert code == 0, err
    # 18 cards: 9 tricks for 2 players, 6 for 3, 4 for 4 (2 cards left out)
    assert re.findall(r"every game lasted (\d+) turns", out) == ["9", "6", "4"]


def test_an_endless_game_is_named(in_tmp, config, capsys):
    folder = starter(in_tmp / "g")
    append(folder, "def legal_actions(state):\n    return [0]\n\n\n"
                   "def apply(state, action):\n    return state\n")
    err = _fault(capsys)
    assert "g/rules.py: apply: 10,000 actions in a row and the turn is still 1" in err
    append(folder, "def apply(state, action):\n    state.turn += 1\n    return state\n\n\n"
                   "def is_over(state):\n    return False\n")
    err = _fault(capsys)
    assert "g/rules.py: is_over: no game ended within 500 turns" in err and "game seed" in err


def test_a_game_that_plays_differently_from_one_seed_is_named(in_tmp, config, capsys):
    append(starter(in_tmp / "g"), '''import random as _random
_new = new_game


def new_game(players, seed, data=None):
    return _new(players, _random.randrange(1 << 30), data)
''')
    err = _fault(capsys)
    assert "g/rules.py: new_game: the same seed played twice went differently" in err
    assert "state.rng" in err and "game seed" in err


def test_a_faulty_examples_hook_stops_the_build_with_its_line(in_tmp, config, capsys):
    line = append(starter(in_tmp / "g"), "def examples(game):\n"
                                         "    return game.data['nothing']  # HERE\n")
    code, _, err = run(capsys, "build", "g", "--trust")
    assert code == 2 and "Traceback" not in err
    assert f"g/rules.py:{line}: examples: raised KeyError: 'nothing'" in err
    code, _, err = run(capsys, "build", "g")  # untrusted: not run, the kit is built
    assert code == 0 and "pnp trust g" in err


# -- "Done when", as a new designer tries it ------------------------------------------------

@pytest.mark.slow
def test_done_when(in_tmp, config, capsys, page_texts):
    code, out, _ = run(capsys, "init", "g", "--engine")
    assert code == 0 and "pnp trust g && pnp simulate g" in out
    plain = run(capsys, "init", "plain")
    assert plain[0] == 0 and not (in_tmp / "plain" / "rules.py").exists()
    assert "rules:" not in (in_tmp / "plain" / "game.yaml").read_text(encoding="utf-8")

    code, _, err = run(capsys, "simulate", "g")
    assert code == 2 and "pnp trust g" in err
    assert run(capsys, "trust", "g")[0] == 0
    code, out, err = run(capsys, "simulate", "g", "--n", "200")
    assert code == 0, err
    assert re.search(r"seat 1: \d+\.\d % \(\d+\.\d-\d+\.\d %\)", out)
    assert out.count("== G, ") == 3  # 2, 3 and 4 players

    code, out, err = run(capsys, "build", "g")
    assert code == 0 and "note:" not in err, err
    text = "\n".join(page_texts(in_tmp / "g" / "output" / "g" / "g.pdf"))
    assert "G: rules" in text and re.search(r"Player \d leads \w+ \(\d of \w+\)", text)
    assert "wins the trick with the highest" in text

    rules_py = in_tmp / "g" / "rules.py"
    good = rules_py.read_text(encoding="utf-8")
    for broken, expected in (
            ("def is_over(state):\n    raise RuntimeError('oops')\n",
             r"g/rules\.py:\d+: is_over: raised RuntimeError: oops \(game seed"),
            ("def greedy_action(state):\n    return -1\n",
             r"g/rules\.py: greedy_action: chose -1, not a legal action"),
            ("def is_over(state):\n    return False\n",
             r"g/rules\.py: legal_actions: no legal action in a game that is not over")):
        rules_py.write_text(good + "\n" + broken, encoding="utf-8")
        # an edited engine is asked about again, as direnv asks of an edited .envrc
        code, _, err = run(capsys, "simulate", "g", "--n", "10", "--policy", "greedy")
        assert code == 2 and "changed since you trusted it" in err, err
        assert run(capsys, "trust", "g")[0] == 0
        code, _, err = run(capsys, "simulate", "g", "--n", "10", "--policy", "greedy")
        assert code == 2 and re.search(expected, err) and "Traceback" not in err, err


@pytest.mark.slow
def test_the_complete_example_of_docs_engines_plays(in_tmp, config, capsys):
    """docs/engines.md's complete small example, as a designer would use it: saved as rules.py
    in a code-free starter, named by `rules: rules.py`, trusted, simulated."""
    from generator.core import paths

    doc = (paths.ROOT / "docs" / "engines.md").read_text(encoding="utf-8")
    section = doc.split("## A complete small example", 1)[1]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    project.init_project(in_tmp / "mygame")
    (in_tmp / "mygame" / "rules.py").write_text(code, encoding="utf-8")
    data = in_tmp / "mygame" / "game.yaml"
    data.write_text(data.read_text(encoding="utf-8").replace(
        "players: [2, 4]\n", "players: [2, 4]\nrules: rules.py\n"), encoding="utf-8")
    assert run(capsys, "trust", "mygame")[0] == 0
    for policy in ("random", "greedy"):
        code_, out, err = run(capsys, "simulate", "mygame", "--n", "50", "--policy", policy)
        assert code_ == 0, err
        assert out.count("seat 1:") == 3 and "stalled" in out


def test_an_engine_that_does_not_compile_or_import_is_named_at_its_line(in_tmp, config,
                                                                         capsys):
    folder = starter(in_tmp / "g")
    line = append(folder, "def broken(:  # HERE\n")
    code, _, err = run(capsys, "simulate", "g", "--trust")
    assert code == 2 and f"g/rules.py:{line}: import: raised SyntaxError" in err, err
    (folder / "rules.py").write_text("import os\n\nundefined_name  # HERE\n", "utf-8")
    code, _, err = run(capsys, "build", "g", "--trust")
    assert code == 2 and "g/rules.py:3: import: raised NameError" in err, err
    assert "Traceback" not in err


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.from_regex(RULES_PATTERN, fullmatch=True))
def test_no_rules_value_the_schema_accepts_leaves_the_project(value):
    """Every ``rules:`` the data file's schema accepts is a built-in name or a relative path
    of plain segments: no ``..``, no root, no drive, nothing hidden."""
    if not value.endswith(PROJECT_RULES):
        assert re.fullmatch(r"[a-z_][a-z0-9_]*", value)
        return
    parts = value.rstrip("/").split("/")
    assert not os.path.isabs(value) and ".." not in parts and "" not in parts
    assert all(not p.startswith(".") for p in parts)


@pytest.mark.slow  # over tests/lanes.py's budget
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_says_which_game_and_hook_it_stopped_in(in_tmp, config, jobs):
    """Ctrl-C (SIGINT to the command's process group, as a terminal sends it) while a hook
    waits in C code, where no line budget can see it: one line naming the game, the hook and
    its line, and the replay command; with workers, each worker's game."""
    import signal
    import subprocess
    import sys
    import time

    folder = starter(in_tmp / "g")
    marks = in_tmp / "marks"
    marks.mkdir()
    line = append(folder, f"""import multiprocessing as _mp
import os as _os
import time as _time
_legal = legal_actions


def legal_actions(state):
    worker = _mp.parent_process() is not None
    if state.turn == 3 and (worker or {jobs == "1"!r}):
        open(_os.path.join({str(marks)!r}, str(_os.getpid())), "w").close()
        _time.sleep(3600)  # HERE
    return _legal(state)
""")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    child = subprocess.Popen(
        [sys.executable, "-m", "generator", "simulate", "g", "--n", "20", "--players", "2",
         "--jobs", jobs, "--trust"], cwd=in_tmp, env=env, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, start_new_session=True,
        # as a terminal starts it: Python ignores SIGINT for good when it starts with it
        # ignored, which a test worker's state (not the product) can leave behind
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        end = time.monotonic() + 120  # patience, never asserted
        while len(list(marks.iterdir())) < int(jobs) and child.poll() is None \
                and time.monotonic() < end:
            time.sleep(0.05)
        time.sleep(0.2)  # each marked process is in its sleep by now
        os.killpg(child.pid, signal.SIGINT)
        _, err = child.communicate(timeout=120)
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
    assert child.returncode == 130, err
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    games = re.findall(rf"game seed (\d+), 2 players in legal_actions \(g/rules\.py:{line}\): "
                       r"pnp simulate g --players 2 --replay (\d+) --trust replays it", err)
    assert err.startswith("interrupted: ") and len(games) == int(jobs), err
    assert all(a == b for a, b in games)
