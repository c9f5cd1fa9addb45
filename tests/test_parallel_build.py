"""Several games built at once (generator/orchestration/parallel.py): the kits are byte-identical
to ones
built one by one, the report keeps the order named, and a failing game is reported as the
command line reports it (same text, exit 2), after the games named before it."""
from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from generator.core import paths
from generator.core.errors import DataError, DataErrors, ForwardedError, reported
from generator.frontends.cli import main
from generator.orchestration.parallel import MAX_JOBS, default_jobs

pytestmark = pytest.mark.slow  # every test here builds or exports kits, or starts processes

GAMES = ("moving-target", "monster-day")


def _pdfs(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*.pdf"))}


def test_parallel_kits_are_byte_identical_to_one_by_one(tmp_path, capsys) -> None:
    assert main(["build", *GAMES, "--jobs", "1", "--out", str(tmp_path / "one")]) == 0
    serial = capsys.readouterr().out
    assert main(["build", *GAMES, "--jobs", "2", "--out", str(tmp_path / "two")]) == 0
    parallel = capsys.readouterr().out
    one, two = _pdfs(tmp_path / "one"), _pdfs(tmp_path / "two")
    assert set(one) == set(two) and len(one) == 4  # two kits, two calibration sheets
    assert one == two
    # The same lines in the same (named) order, only the folder differs.
    assert serial.replace(str(tmp_path / "one"), "OUT") == \
        parallel.replace(str(tmp_path / "two"), "OUT")
    assert [line.split(":")[0] for line in parallel.splitlines()] == list(GAMES)


def test_a_failing_game_is_reported_like_a_serial_build(tmp_path, capsys,
                                                        moving_target_source) -> None:
    broken = tmp_path / "broken.yaml"
    assert "    size: poker\n" in moving_target_source
    broken.write_text(moving_target_source.replace("id: moving-target", "id: broken-target", 1)
                      .replace("    size: poker\n", "    size: huge\n", 1), encoding="utf-8")
    outcomes = {}
    for jobs in ("1", "2"):
        out = tmp_path / f"out{jobs}"
        code = main(["build", "moving-target", str(broken), "--jobs", jobs, "--out", str(out)])
        captured = capsys.readouterr()
        outcomes[jobs] = (code, captured.out.replace(str(out), "OUT"), captured.err)
        assert (out / "moving-target" / "moving-target.pdf").is_file()  # built before it
        assert not (out / "broken-target").exists() or \
            not list((out / "broken-target").glob("*.pdf"))
    assert outcomes["1"] == outcomes["2"]
    code, printed, err = outcomes["2"]
    assert code == 2 and printed.startswith("moving-target: ")
    assert err.startswith(f"error: {broken}:") and "Traceback" not in err


def test_forwarded_errors_survive_pickling_with_their_text_and_code() -> None:
    error = DataErrors([DataError("a.yaml", 3, "width", "a number"),
                        DataError("a.yaml", 9, "name", "text")])
    text, code = reported(error)
    assert (text, code) == ("a.yaml:3: width: a number\na.yaml:9: name: text", 2)
    back = pickle.loads(pickle.dumps(ForwardedError(text, code)))
    assert reported(back) == (text, code)
    assert reported(PermissionError(13, "Permission denied", "/x/out.pdf")) == \
        ("/x/out.pdf: Permission denied", 1)
    assert reported(ZeroDivisionError("bug")) is None  # a bug keeps its traceback


@pytest.mark.parametrize("games", [1, 2, 5, 40])
def test_default_jobs_is_one_per_core_never_more_than_the_games(games) -> None:
    jobs = default_jobs(games)
    assert 1 <= jobs <= min(games, MAX_JOBS)


def test_jobs_out_of_range_is_a_usage_error(capsys) -> None:
    assert main(["build", "moving-target", "--jobs", "0", "--out", str(paths.OUTPUT)]) == 2
    assert "--jobs" in capsys.readouterr().err


def _fake_build(game_id: str, opts: object) -> tuple[Path, int]:
    """A stand-in build (inherited by the forked workers): 'bad' is bad data, 'bug' a bug."""
    if game_id == "bad":
        raise DataError(f"{game_id}.yaml", 4, "width", "a number")
    if game_id == "bug":
        raise ZeroDivisionError("a bug of ours")
    return Path(f"/nowhere/{game_id}.pdf"), len(game_id)


@pytest.mark.parametrize("jobs", [1, 2, 3])
def test_every_game_comes_back_once_in_the_order_named(jobs) -> None:
    from generator.orchestration.parallel import build_games

    names = [f"game{i}" for i in range(7)]
    built = list(build_games(_fake_build, names, None, jobs))
    assert [b.game_id for b in built] == names
    assert [b.pages for b in built] == [len(n) for n in names]


@pytest.mark.parametrize("jobs", [1, 2])
def test_bad_data_in_any_process_stops_at_its_place_in_the_order(jobs) -> None:
    from generator.orchestration.parallel import build_games

    seen = []
    with pytest.raises((DataError, ForwardedError)) as raised:
        for built in build_games(_fake_build, ["one", "two", "bad", "four"], None, jobs):
            seen.append(built.game_id)
    assert seen == ["one", "two"]
    assert reported(raised.value) == ("bad.yaml:4: width: a number", 2)


def test_a_bug_in_a_worker_keeps_its_traceback() -> None:
    from generator.orchestration.parallel import BuildCrashed, build_games

    with pytest.raises((BuildCrashed, ZeroDivisionError)) as raised:
        list(build_games(_fake_build, ["one", "bug", "three", "four"], None, 2))
    assert "a bug of ours" in str(raised.value)
