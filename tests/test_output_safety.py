"""Output safety: atomic PDFs, manifests, charts and whole PNG sets; no predictable temporary
names (planted links are never followed); one build per output folder at a time; litter of
killed builds swept; clean errors (one ``error:`` line) for unwritable outputs, bad options
and two data files with one game id; Ctrl-C exits 130 leaving the previous outputs intact.

Kits and PNG sets are those of `pnp init`'s starter project (18 cards and 2 tokens): the same
commands and the same output handling as a built-in kit, for a fraction of the drawing and
rasterising (a PNG set of 21 distinct faces, not 60). Simulations are Moving Target's (the
starter has no rules engine), and so are the game-identity checks."""
from __future__ import annotations

import errno
import fcntl
import os
import pickle
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from PIL import Image
from reportlab.pdfgen.canvas import Canvas

from generator.core import atomic, paths
from generator.core.atomic import (
    LITTER,
    OutputBusy,
    OutputError,
    atomic_batch,
    atomic_dir,
    atomic_path,
    output_lock,
    sweep,
)
from generator.core.errors import DataError
from generator.core.sizes import PAPER_SIZES
from generator.data import check_games, game_ids
from generator.frontends import cli

GAME = "moving-target"  # a built-in game with a rules engine (simulate)
KIT = "starter"  # the id of the starter project below (its folder's name)
DAWN = "    - {name: Dawn, suit: sun, value: 1}\n"  # a card of the starter's deck
PNG_FAST = ["--dpi", "72", "--jobs", "1"]


# -- helpers -------------------------------------------------------------------------------

def run(*args, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "generator", *map(str, args)], cwd=paths.ROOT,
                          capture_output=True, text=True, timeout=timeout)


def start(*args, **options) -> subprocess.Popen[str]:
    options.setdefault("stderr", subprocess.PIPE)
    return subprocess.Popen([sys.executable, "-m", "generator", *map(str, args)],
                            cwd=paths.ROOT, stdout=subprocess.PIPE, text=True, **options)


def main(capsys, *argv) -> tuple[int, str]:
    """Run the CLI in this process; returns the exit status and stderr."""
    code = cli.main([str(a) for a in argv])
    return code, capsys.readouterr().err


def one_error(err: str) -> str:
    """stderr must be exactly one ``error:`` line, no traceback."""
    assert "Traceback" not in err, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every regular file under ``folder`` (dotfiles too) -> its bytes."""
    found = {}
    for root, _, files in os.walk(folder):
        for name in files:
            path = Path(root, name)
            if path.is_file() and not path.is_symlink():
                found[str(path.relative_to(folder))] = path.read_bytes()
    return found


def litter(folder: Path) -> list[str]:
    """Temporary files or folders, or a lock file, left anywhere under ``folder`` (a link a
    test planted is not litter)."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if not p.is_symlink()
                  and (LITTER.match(p.name) or p.name == ".lock" or p.name.endswith(".part")))


def png_files(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())


def assert_complete_png_set(folder: Path, reference: Path) -> None:
    assert png_files(folder) == png_files(reference)
    for file in folder.rglob("*.png"):
        with Image.open(file) as image:
            image.verify()


def wait_until(predicate, proc: subprocess.Popen[str], timeout: float = 90) -> bool:
    """Poll ``predicate`` while ``proc`` runs; False if it ended first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        if proc.poll() is not None:
            return False
        time.sleep(0.005)
    return False


def staging_with_pngs(game_out: Path) -> bool:
    """A PNG set being rendered: a temporary folder beside png/ holding some PNGs."""
    try:
        staging = [p for p in game_out.iterdir() if p.name.startswith(".png.")
                   and p.name.endswith(".part")]
        return any(next(s.rglob("*.png"), None) for s in staging)
    except OSError:
        return False


def dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


@pytest.fixture(scope="module")
def starter(run_once) -> Path:
    """`pnp init`'s starter project (made once per test run; tests only read it)."""
    def make(folder: Path) -> None:
        assert cli.main(["init", str(folder / KIT)]) == 0

    folder, _ = run_once("output-safety-starter", make)
    return folder / KIT


@pytest.fixture(scope="module")
def commands(starter) -> dict[str, list[str]]:
    """Each command writing outputs, as the tests run it (add ``--out``)."""
    return {"build": ["build", str(starter)],
            "png": ["png", str(starter), *PNG_FAST],
            "simulate": ["simulate", GAME, "--n", "5", "--players", "2"]}


@pytest.fixture(scope="module")
def previous(run_once, commands) -> Path:
    """One complete earlier output: the starter's PDF kit, calibration and PNG set, Moving
    Target's chart (made once per test run; tests copy it or only read it)."""
    def make(out: Path) -> None:
        for argv in commands.values():
            assert cli.main([*argv, "--out", str(out)]) == 0

    out, _ = run_once("previous-output", make)
    return out


@pytest.fixture
def out(tmp_path, previous) -> Path:
    """A copy of the previous outputs to build over."""
    target = tmp_path / "out"
    shutil.copytree(previous, target, symlinks=True)
    return target


# -- planted links at the old predictable temporary names ----------------------------------

PLANTED = [  # in the output folder
    ("png", f"{KIT}/png/deck/.001-dawn-front.png.part"),
    ("png", f"{KIT}/png/deck/.001-dawn-back.png.part"),
    ("png", f"{KIT}/png/tokens/.001-1-point.png.part"),
    ("png", f"{KIT}/png/tokens/.002-5-points.png.part"),
    ("png", f"{KIT}/png/deck/001-dawn-front.png"),  # the final name itself
    ("build", f"{KIT}/.{KIT}.pdf.part"),
    ("build", f"{KIT}/.{KIT}.kit.json.part"),
    ("build", f"{KIT}/.{KIT}-calibration.pdf.part"),
    ("build", f"{KIT}/.{KIT}-calibration.kit.json.part"),
    ("build", f"{KIT}/{KIT}.pdf"),
    ("build", f"{KIT}/.lock"),
    ("simulate", f"{GAME}/.simulation-2p-random.png.part"),
    ("simulate", f"{GAME}/simulation-2p-random.png"),
]


@pytest.mark.parametrize(("command", "name"), PLANTED, ids=[n for _, n in PLANTED])
def test_a_planted_link_is_never_followed(command, name, commands, out, tmp_path, capsys):
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"precious")
    victim.chmod(0o600)
    link = out / name
    link.unlink(missing_ok=True)
    link.symlink_to(victim)
    code, err = main(capsys, *commands[command], "--out", out)
    assert code == 0, err
    assert victim.read_bytes() == b"precious" and victim.stat().st_mode & 0o777 == 0o600
    final = not link.name.startswith(".") or link.name == ".lock" or "png/" in name
    if final:  # an output's own name (or inside the swapped PNG set): the link is gone
        assert not link.is_symlink()
    assert litter(out) == []


@pytest.mark.parametrize(("command", "name"), [("build", f"{KIT}/.{KIT}.pdf.part"),
                                               ("png", f"{KIT}/png/deck/.001-dawn-front.png"
                                                       ".part")])
def test_a_dangling_planted_link_creates_nothing(command, name, commands, out, tmp_path, capsys):
    victim = tmp_path / "created-by-the-attack.txt"
    (out / name).symlink_to(victim)
    code, err = main(capsys, *commands[command], "--out", out)
    assert code == 0, err
    assert not victim.exists()


# -- two builds at once --------------------------------------------------------------------

def test_two_png_exports_at_once_both_finish_with_a_complete_set(starter, out, previous):
    a = start("png", starter, "--out", out, *PNG_FAST)
    b = start("png", starter, "--out", out, *PNG_FAST)
    results = [p.communicate(timeout=180) + (p.returncode,) for p in (a, b)]
    for _, err, code in results:
        assert code == 0, err
        assert "Traceback" not in err
    assert_complete_png_set(out / KIT / "png", previous / KIT / "png")
    assert litter(out) == []


def test_a_pdf_build_and_a_png_export_at_once(starter, out, previous):
    before = snapshot(out / KIT / "png")
    a = start("build", starter, "--out", out)
    b = start("png", starter, "--out", out, *PNG_FAST)
    for proc in (a, b):
        _, err = proc.communicate(timeout=180)
        assert proc.returncode == 0 and "Traceback" not in err, err
    assert snapshot(out / KIT / "png") == before  # same options: the same bytes
    assert snapshot(out / KIT)[f"{KIT}.pdf"] == (previous / KIT / f"{KIT}.pdf").read_bytes()
    assert litter(out) == []


def _hold_lock(folder: Path) -> int:
    folder.mkdir(parents=True, exist_ok=True)
    fd = os.open(folder / ".lock", os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)
    os.write(fd, b"4242\n")
    return fd


def test_a_busy_folder_is_refused_clearly_with_wait_0(starter, out, capsys):
    before = snapshot(out)
    fd = _hold_lock(out / KIT)
    try:
        code, err = main(capsys, "build", starter, "--out", out, "--wait", "0")
    finally:
        os.close(fd)
    line = one_error(err)
    assert code == 1
    assert "another build" in line and "pid 4242" in line and "--wait" in line
    assert {k: v for k, v in snapshot(out).items() if not k.endswith(".lock")} == before


def test_a_second_build_waits_for_the_first(starter, out, previous):
    fd = _hold_lock(out / KIT)
    log = out / "second-build.err"
    try:
        with log.open("w", encoding="utf-8") as sink:
            proc = start("build", starter, "--out", out, "--wait", "60", stderr=sink)
        # It says it waits once it reaches the lock (after loading and rendering: seconds on
        # a busy machine), then keeps waiting while the lock is held.
        assert wait_until(lambda: "waiting for another build" in log.read_text("utf-8"), proc)
        time.sleep(0.5)
        assert proc.poll() is None  # still waiting
    finally:
        os.close(fd)
    proc.communicate(timeout=120)
    err = log.read_text("utf-8")
    log.unlink()
    assert proc.returncode == 0, err
    assert "waiting for another build" in err and "pid 4242" in err
    assert litter(out) == []


# -- killed mid-way: kill -9 and Ctrl-C ----------------------------------------------------

@pytest.mark.parametrize("next_build", ["png", "build"])
def test_kill_9_mid_export_keeps_the_previous_set_and_the_next_build_sweeps(
        next_build, starter, commands, out, previous, capsys):
    before = snapshot(out)
    proc = start("png", starter, "--out", out, "--jobs", "1")  # 300 dpi: seconds of rendering
    try:
        assert wait_until(lambda: staging_with_pngs(out / KIT), proc), "export ended too soon"
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.kill()
        proc.communicate()
    assert proc.returncode == -signal.SIGKILL
    left = litter(out)
    assert any(name.startswith(f"{KIT}/.png.") for name in left), left
    now = snapshot(out)
    assert {k: v for k, v in now.items() if k in before} == before  # nothing replaced
    code, err = main(capsys, *commands[next_build], "--out", out)
    assert code == 0, err
    assert litter(out) == []
    assert_complete_png_set(out / KIT / "png", previous / KIT / "png")


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_mid_export_exits_130_and_changes_nothing(jobs, starter, out):
    before = snapshot(out)
    # A terminal's Ctrl-C reaches the whole process group: the workers as well. The export
    # starts with Ctrl-C's default action, as from a terminal: a test run started in the
    # background (a shell's `&`) ignores SIGINT, and its children would inherit that.
    proc = start("png", starter, "--out", out, "--jobs", jobs, start_new_session=True,
                 preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert wait_until(lambda: staging_with_pngs(out / KIT), proc), "export ended too soon"
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
    assert proc.returncode == 130, err
    assert err.strip() == "interrupted"
    assert snapshot(out) == before
    assert litter(out) == []


def test_ctrl_c_while_the_kit_is_written_keeps_pdf_manifest_and_calibration(
        starter, out, monkeypatch, capsys):
    """Interrupted after the new PDF is complete, before the calibration sheet's manifest:
    none of the four files is replaced (they are replaced together)."""
    import generator.orchestration.output as output

    real = output.write_manifest

    def interrupted(kit, target):
        if "calibration" in target.name or "calibration" in str(target):
            raise KeyboardInterrupt
        real(kit, target)

    before = snapshot(out)
    monkeypatch.setattr(output, "write_manifest", interrupted)
    code, err = main(capsys, "build", starter, "--out", out, "--gap", "2")
    assert code == 130 and err.strip() == "interrupted"
    assert snapshot(out) == before
    assert litter(out) == []


def test_ctrl_c_in_process_png_keeps_the_old_set(commands, out, monkeypatch, capsys):
    import generator.orchestration.export as export

    real, calls = export._job, []

    def job(task):
        calls.append(task)
        if len(calls) == 5:
            raise KeyboardInterrupt
        return real(task)

    before = snapshot(out)
    monkeypatch.setattr(export, "_job", job)
    code, err = main(capsys, *commands["png"], "--out", out)
    assert code == 130 and err.strip() == "interrupted"
    assert snapshot(out) == before and litter(out) == []


# -- unwritable outputs: one error line, exit 1, previous outputs byte-identical -------------

def _enospc(*args, **kwargs):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


DISK_FULL = {
    "pdf": ("build", lambda mp: mp.setattr(Canvas, "save", _enospc), f"{KIT}.pdf"),
    "manifest": ("build", lambda mp: mp.setattr(Path, "write_text", _enospc), ".kit.json"),
    "png": ("png", lambda mp: mp.setattr(Image.Image, "save", _enospc), f"{KIT}/png"),
    "chart": ("simulate", lambda mp: mp.setattr(Image.Image, "save", _enospc),
              "simulation-2p-random.png"),
}


@pytest.mark.parametrize("case", DISK_FULL)
def test_disk_full_is_one_error_line_and_loses_nothing(case, commands, out, monkeypatch, capsys):
    command, patch, named = DISK_FULL[case]
    before = snapshot(out)
    patch(monkeypatch)
    code, err = main(capsys, *commands[command], "--out", out)
    line = one_error(err)
    assert code == 1
    assert line.startswith(f"error: cannot write {out}") and named in line
    assert line.endswith(": No space left on device")
    assert snapshot(out) == before
    assert litter(out) == []


def _denied(*args, **kwargs):
    raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(args[0]) if args else None)


def _read_only(*args, **kwargs):
    raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(args[0]) if args else None)


# Root ignores file permissions, so a read-only folder is simulated at the system call.
READ_ONLY = {
    "build: rename refused": ("build", os, "replace", _denied, "Permission denied"),
    "build: read-only file system": ("build", os, "replace", _read_only, "Read-only file system"),
    "build: cannot create a temporary file": ("build", tempfile, "mkstemp", _denied,
                                              "Permission denied"),
    "png: cannot create the staging folder": ("png", tempfile, "mkdtemp", _denied,
                                              "Permission denied"),
    "png: cannot move the old set aside": ("png", os, "rename", _denied, "Permission denied"),
    "chart: rename refused": ("simulate", os, "replace", _denied, "Permission denied"),
}


@pytest.mark.parametrize("case", READ_ONLY)
def test_read_only_output_is_one_error_line(case, commands, out, monkeypatch, capsys):
    command, module, name, fake, reason = READ_ONLY[case]
    before = snapshot(out)
    monkeypatch.setattr(module, name, fake)
    code, err = main(capsys, *commands[command], "--out", out)
    monkeypatch.undo()
    line = one_error(err)
    assert code == 1 and line.startswith("error: cannot write ") and line.endswith(reason)
    assert snapshot(out) == before
    assert litter(out) == []


def test_a_failed_swap_puts_the_old_png_set_back(commands, out, monkeypatch, capsys):
    """The old set is moved aside, then moving the new one in fails: the old one returns."""
    real, calls = os.rename, []

    def rename(src, dst, **at):  # at: the folder's descriptor (generator/core/atomic.py)
        calls.append((src, dst))
        if len(calls) == 2:
            raise OSError(errno.EIO, os.strerror(errno.EIO), str(src))
        return real(src, dst, **at)

    before = snapshot(out)
    monkeypatch.setattr(os, "rename", rename)
    code, err = main(capsys, *commands["png"], "--out", out)
    monkeypatch.undo()
    assert code == 1 and "Input/output error" in one_error(err)
    assert snapshot(out) == before and litter(out) == []


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores file permissions")
def test_a_really_read_only_folder(starter, out, capsys):
    folder = out / KIT
    before = snapshot(out)
    folder.chmod(0o555)
    try:
        code, err = main(capsys, "build", starter, "--out", out)
    finally:
        folder.chmod(0o755)
    assert code == 1 and "Permission denied" in one_error(err)
    assert snapshot(out) == before


@pytest.mark.parametrize("where", [f"{KIT}.pdf", f"{KIT}.kit.json",
                                   f"{KIT}-calibration.kit.json"])
def test_a_folder_where_an_output_file_goes(where, starter, out, capsys):
    (out / KIT / where).unlink()
    (out / KIT / where).mkdir()
    before = snapshot(out)
    code, err = main(capsys, "build", starter, "--out", out)
    line = one_error(err)
    assert code == 1 and line == f"error: cannot write {out / KIT / where}: Is a directory"
    assert snapshot(out) == before and litter(out) == []


def test_a_file_where_the_game_folder_goes(tmp_path, capsys):
    (tmp_path / GAME).write_text("not a folder")
    code, err = main(capsys, "build", GAME, "--out", tmp_path)
    assert code == 1 and one_error(err) == f"error: cannot write {tmp_path / GAME}: not a folder"
    assert (tmp_path / GAME).read_text() == "not a folder"


def test_out_is_a_file(tmp_path, capsys):
    (tmp_path / "file").write_text("x")
    code, err = main(capsys, "png", GAME, "--out", tmp_path / "file", *PNG_FAST)
    assert code == 1 and one_error(err).startswith(f"error: cannot write {tmp_path / 'file'}")


@pytest.mark.slow
def test_unwritable_output_through_the_real_cli_has_no_traceback(tmp_path):
    (tmp_path / GAME).mkdir()
    (tmp_path / GAME / f"{GAME}.pdf").mkdir()
    result = run("build", GAME, "--out", tmp_path)
    assert result.returncode == 1
    assert one_error(result.stderr).endswith(f"{GAME}.pdf: Is a directory")


# -- file modes follow the umask -----------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("umask", [0o022, 0o027], ids=["022", "027"])
def test_outputs_get_the_users_umask_mode(umask, commands, tmp_path, capsys):
    old = os.umask(umask)
    try:
        for command in commands.values():
            code, err = main(capsys, *command, "--out", tmp_path)
            assert code == 0, err
    finally:
        os.umask(old)
    game = tmp_path / KIT
    files = [game / f"{KIT}.pdf", game / f"{KIT}.kit.json", game / f"{KIT}-calibration.pdf",
             game / f"{KIT}-calibration.kit.json", tmp_path / GAME / "simulation-2p-random.png",
             *game.rglob("*.png")]
    assert len(files) == 5 + 18 + 1 + 2  # the PNG set: each card's front, their one back, 2 tokens
    for file in files:
        assert file.stat().st_mode & 0o777 == 0o666 & ~umask, file
    for folder in [game / "png", *(p for p in (game / "png").iterdir() if p.is_dir())]:
        assert folder.stat().st_mode & 0o777 == 0o777 & ~umask, folder


# -- stale files ---------------------------------------------------------------------------

@pytest.mark.slow
def test_pngs_of_a_removed_card_do_not_survive(starter, tmp_path, capsys):
    full = starter / "game.yaml"
    fewer = shutil.copytree(starter, tmp_path / "fewer") / "game.yaml"
    text = fewer.read_text(encoding="utf-8")
    assert text.count(DAWN) == 1
    fewer.write_text(text.replace(DAWN, ""), encoding="utf-8")
    out = tmp_path / "out"
    assert main(capsys, "png", full, "--out", out, *PNG_FAST)[0] == 0
    assert any("dawn" in name for name in png_files(out / KIT / "png"))
    code, err = main(capsys, "png", fewer, "--out", out, *PNG_FAST, "--force")
    assert code == 0, err
    names = png_files(out / KIT / "png")
    assert not any("dawn" in name for name in names)
    assert len([n for n in names if n.startswith("deck/")]) == 17 + 1  # fronts, one shared back
    fresh = tmp_path / "fresh"
    assert main(capsys, "png", fewer, "--out", fresh, *PNG_FAST, "--force")[0] == 0
    assert names == png_files(fresh / KIT / "png")


def test_a_stray_file_in_the_png_set_is_gone_after_an_export(commands, out, previous, capsys):
    (out / KIT / "png" / "deck" / "999-old-card-front.png").write_bytes(b"stale")
    (out / KIT / "png" / "old-component").mkdir()
    assert main(capsys, *commands["png"], "--out", out)[0] == 0
    assert_complete_png_set(out / KIT / "png", previous / KIT / "png")


# -- option validation ---------------------------------------------------------------------

SIM = ["simulate", GAME]
BAD_OPTIONS = [
    (["build", "--gap", "nan"], "--gap", "from 0 to 20 mm"),
    (["build", "--gap", "-30"], "--gap", "from 0 to 20 mm"),
    (["build", "--gap", "inf"], "--gap", "from 0 to 20 mm"),
    (["build", "--margin", "-50"], "--margin", "from 0 to less than 70 mm"),
    (["build", "--margin", "200"], "--margin", "from 0 to less than 70 mm"),
    (["build", "--margin", "70"], "--margin", "from 0 to less than 70 mm"),
    (["build", "--paper", "letter", "--margin", "72"], "--margin", "less than 71.97 mm"),
    (["png", "--margin", "nan"], "--margin", "from 0 to less than 70 mm"),
    (["build", "--bleed", "50"], "--bleed", "from 0 to 10 mm"),
    (["build", "--bleed", "-1"], "--bleed", "from 0 to 10 mm"),
    (["build", "--back-dx", "nan"], "--back-dx", "from -20 to 20 mm"),
    (["build", "--back-dy", "-99"], "--back-dy", "from -20 to 20 mm"),
    (["png", "--dpi", "0"], "--dpi", "from 72 to 1200"),
    (["png", "--dpi", "-1"], "--dpi", "from 72 to 1200"),
    (["png", "--dpi", "5000"], "--dpi", "from 72 to 1200"),
    ([*SIM, "--n", "0"], "--n", "at least 1"),
    ([*SIM, "--n", "-1"], "--n", "at least 1"),
    (["preview", "--n", "0"], "--n", "at least 1"),
    ([*SIM, "--players", "99"], "--players", "from 2 to 3 for moving-target"),
    ([*SIM, "--players", "0"], "--players", "from 2 to 3 for moving-target"),
    (["simulate", "monster-day", "--players", "3"], "--players", "from 2 to 2 for monster-day"),
    (["simulate", "--players", "99"], "--players", "a player count of some game (got 99; "
                                                   "the games allow monster-day: 2,"),
    (["png", "--jobs", "0"], "--jobs", "from 1 to 256"),
    ([*SIM, "--jobs", "0"], "--jobs", "from 1 to 256"),
    (["build", "--wait", "-1"], "--wait", "from 0 to 86400 seconds"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("argv", "option", "allowed"), BAD_OPTIONS,
                         ids=[" ".join(a) for a, _, _ in BAD_OPTIONS])
def test_an_option_out_of_range_exits_2_naming_it(argv, option, allowed, tmp_path, capsys):
    code, err = main(capsys, *argv, "--out", tmp_path)
    line = one_error(err)
    assert code == 2
    assert line.startswith(f"error: {option} must be ") and allowed in line, line
    assert not any(tmp_path.iterdir())  # refused before anything was written


def test_players_for_every_game_skips_the_games_without_that_count(tmp_path, capsys):
    code = cli.main(["simulate", "--players", "4", "--n", "2", "--jobs", "1", "--out",
                     str(tmp_path)])
    text = capsys.readouterr().out
    assert code == 0
    assert "== Moving Target: not for 4 players, skipped ==" in text
    assert "4 players ==" in text  # the games for 2-4 players ran


@pytest.mark.slow
def test_options_out_of_range_through_the_real_cli(tmp_path):
    for argv in (["build", "--gap", "nan"], ["simulate", GAME, "--n", "0"],
                 ["png", "--dpi", "-1"]):
        result = run(*argv, "--out", tmp_path, timeout=60)
        assert result.returncode == 2
        one_error(result.stderr)


@pytest.mark.parametrize("argv", [
    ["build", "--gap", "20", "--bleed", "10", "--margin", "69.9", "--back-dx", "-20"],
    ["png", "--dpi", "72", "--jobs", "1", "--gap", "0", "--margin", "0"],
    ["png", "--dpi", "1200", "--jobs", "256"],
    ["simulate", "--n", "1", "--players", "2", "--jobs", "1"],
    ["build", "--paper", "a3", "--margin", "98"],
])
def test_options_at_their_limits_are_accepted(argv):
    cli.validate(cli.parser().parse_args(argv))


# -- make ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("setting", "allowed"), [
    ("INK=save", "saver"), ("PAPER=a5", "a3 a4 letter"), ("LAYOUT=x", "sheets gutterfold single"),
    ("FLIP=sideways", "long short"), ("PRESET=huge", "default tgc mpc"),
    ("POLICY=smart", "random greedy"), ("PAPER=", "a3 a4 letter"),
])
def test_make_stops_on_an_unknown_setting(setting, allowed):
    result = subprocess.run(["make", "-n", "pdf", setting], cwd=paths.ROOT, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode != 0
    assert f"{setting} is not allowed; use one of: {allowed}" in result.stderr
    assert "generator build" not in result.stdout


def test_make_passes_good_settings_on():
    result = subprocess.run(["make", "-n", "pdf", "INK=saver", "PAPER=letter", "FLIP=short",
                             "LAYOUT=gutterfold"], cwd=paths.ROOT, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "--ink-saver" in result.stdout and "--paper letter" in result.stdout
    assert "--layout gutterfold" in result.stdout and "--flip short" in result.stdout


def test_the_makefile_knows_every_paper_size():
    text = (paths.ROOT / "Makefile").read_text(encoding="utf-8")
    papers = re.search(r"^PAPERS := (.*)$", text, re.M)
    assert papers and sorted(papers[1].split()) == sorted(PAPER_SIZES)


# -- game identity: two data files, one output folder ---------------------------------------

@pytest.fixture
def card_data(tmp_path, monkeypatch) -> Path:
    """card_data/ holding the game and a copy of it under another file name (same id)."""
    folder = tmp_path / "card_data"
    folder.mkdir()
    shutil.copy(paths.CARD_DATA / f"{GAME}.yaml", folder / f"{GAME}.yaml")
    shutil.copy(paths.CARD_DATA / f"{GAME}.yaml", folder / "my-copy.yaml")
    monkeypatch.setattr(paths, "CARD_DATA", folder)
    return folder


@pytest.mark.parametrize("argv", [["list"], ["build"], ["build", GAME], ["png", "my-copy"],
                                  ["simulate", "--n", "1"], ["verify"], ["preview", GAME]])
def test_two_files_with_one_game_id_exit_2_naming_both(argv, card_data, tmp_path, capsys):
    out = [] if argv[0] in ("list", "verify") else ["--out", str(tmp_path / "out")]
    code, err = main(capsys, *argv, *out)
    line = one_error(err)
    assert code == 2
    assert str(card_data / f"{GAME}.yaml") in line and str(card_data / "my-copy.yaml") in line
    assert f"game id '{GAME}'" in line
    assert not (tmp_path / "out").exists()


def test_a_data_file_by_path_with_a_built_in_id_is_refused_for_the_shared_output(
        tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(paths, "OUTPUT", tmp_path / "output")
    copy = tmp_path / "elsewhere" / "copy.yaml"
    copy.parent.mkdir()
    shutil.copy(paths.CARD_DATA / f"{GAME}.yaml", copy)
    code, err = main(capsys, "build", copy)
    line = one_error(err)
    assert code == 2 and str(copy) in line and str(paths.CARD_DATA / f"{GAME}.yaml") in line
    assert not (tmp_path / "output").exists()


def test_identity_checks_by_path(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "OUTPUT", tmp_path / "output")
    builtin = paths.CARD_DATA / f"{GAME}.yaml"
    copy = tmp_path / "copy.yaml"
    shutil.copy(builtin, copy)
    # The built-in file itself, by path: it IS that game.
    assert check_games([str(builtin)], paths.OUTPUT) == [str(builtin)]
    # A variant written somewhere else: allowed (trying out changes).
    assert check_games([str(copy)], tmp_path / "elsewhere") == [str(copy)]
    # Nothing written (verify): allowed.
    assert check_games([str(copy)], None) == [str(copy)]
    # Two files with one id in one command: refused, naming both.
    with pytest.raises(DataError) as info:
        check_games([GAME, str(copy)], tmp_path / "elsewhere")
    assert str(copy) in info.value.message() and str(builtin) in info.value.message()


def test_game_discovery_reads_card_data_at_call_time(tmp_path, monkeypatch):
    folder = tmp_path / "card_data"
    folder.mkdir()
    shutil.copy(paths.CARD_DATA / f"{GAME}.yaml", folder / f"{GAME}.yaml")
    (folder / "notes.yaml").write_text("just: notes\n")
    monkeypatch.setattr(paths, "CARD_DATA", folder)
    assert game_ids() == [GAME]


# -- the atomic writers and the lock themselves ---------------------------------------------

def test_a_batch_replaces_nothing_when_one_file_fails(tmp_path):
    a, b = tmp_path / "a.pdf", tmp_path / "b.json"
    a.write_bytes(b"old a")
    b.write_bytes(b"old b")
    with pytest.raises(RuntimeError), atomic_batch():
        with atomic_path(a) as tmp:
            tmp.write_bytes(b"new a")
        with atomic_path(b) as tmp:
            tmp.write_bytes(b"half")
            raise RuntimeError("renderer crashed")
    assert (a.read_bytes(), b.read_bytes()) == (b"old a", b"old b")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.pdf", "b.json"]
    with atomic_batch():
        with atomic_path(a) as tmp:
            tmp.write_bytes(b"new a")
        assert a.read_bytes() == b"old a"  # not yet
        with atomic_path(b) as tmp:
            tmp.write_bytes(b"new b")
    assert (a.read_bytes(), b.read_bytes()) == (b"new a", b"new b")


def test_atomic_dir_keeps_the_old_folder_on_failure_and_swaps_whole(tmp_path):
    target = tmp_path / "png"
    (target / "deck").mkdir(parents=True)
    (target / "deck" / "old.png").write_bytes(b"old")
    with pytest.raises(RuntimeError), atomic_dir(target) as staging:
        (staging / "new.png").write_bytes(b"new")
        raise RuntimeError
    assert png_files(target) == ["deck/old.png"] and litter(tmp_path) == []
    with atomic_dir(target) as staging:
        (staging / "new.png").write_bytes(b"new")
    assert png_files(target) == ["new.png"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["png"]


def test_atomic_dir_replaces_a_link_without_touching_what_it_points_to(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "keep.txt").write_text("keep")
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "png").symlink_to(elsewhere)
    with atomic_dir(tmp_path / "out" / "png") as staging:
        (staging / "new.png").write_bytes(b"new")
    assert not (tmp_path / "out" / "png").is_symlink()
    assert (elsewhere / "keep.txt").read_text() == "keep"


def test_sweep_removes_only_litter_of_dead_processes(tmp_path):
    """Only names of our own shape (the ``pnp-`` marker), made by a process the lock file
    lists as a holder that never released it, once it is gone: a user's file of the old shape
    or of a process that never held the lock is kept (tests/hostile/test_outputs.py)."""
    dead, alive, stranger = dead_pid(), os.getppid(), dead_pid()
    (tmp_path / f".kit.pdf.pnp-{dead}-abc123.part").write_bytes(b"half")
    (tmp_path / f".png.pnp-{dead}-x_y9.part").mkdir()
    (tmp_path / f".kit.pdf.pnp-{alive}-abc123.part").write_bytes(b"in progress")
    (tmp_path / f".kit.pdf.pnp-{stranger}-abc123.part").write_bytes(b"never held the lock")
    (tmp_path / f".kit.pdf.{dead}-abc123.part").write_bytes(b"no marker")
    (tmp_path / ".gitignore").write_text("*\n")
    (tmp_path / ".notes.part").write_text("not ours")
    (tmp_path / f".png-tgc.pnp-{dead}-q1.old").mkdir()  # a swap cut short: no png-tgc/ now
    (tmp_path / f".png-tgc.pnp-{dead}-q1.old" / "a.png").write_bytes(b"png")
    sweep(tmp_path, [dead, alive])
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([
        f".kit.pdf.pnp-{alive}-abc123.part", f".kit.pdf.pnp-{stranger}-abc123.part",
        f".kit.pdf.{dead}-abc123.part", ".gitignore", ".notes.part", "png-tgc"])
    assert (tmp_path / "png-tgc" / "a.png").read_bytes() == b"png"


def test_the_lock_is_reentrant_and_leaves_no_file(tmp_path):
    with output_lock(tmp_path / "game"), output_lock(tmp_path / "game"):
        assert (tmp_path / "game" / ".lock").read_text().strip() == str(os.getpid())
    assert list((tmp_path / "game").iterdir()) == []


def test_the_lock_gives_up_after_its_timeout(tmp_path):
    fd = _hold_lock(tmp_path)
    started = time.monotonic()
    try:
        with pytest.raises(OutputBusy) as info, output_lock(tmp_path, timeout=0.3):
            pass
    finally:
        os.close(fd)
    assert 0.3 <= time.monotonic() - started < 5
    assert "another build" in str(info.value) and "pid 4242" in str(info.value)


def test_output_errors_survive_a_worker_process():
    error = OutputError("/out/game/png", "No space left on device", errno.ENOSPC)
    copy = pickle.loads(pickle.dumps(error))
    assert str(copy) == str(error) == "cannot write /out/game/png: No space left on device"
    assert copy.errno == errno.ENOSPC


def test_temporary_names_are_unpredictable(tmp_path):
    seen = set()
    for _ in range(3):
        with atomic_path(tmp_path / "kit.pdf") as tmp:
            seen.add(tmp.name)
            assert LITTER.match(tmp.name) and tmp.name != ".kit.pdf.part"
    assert len(seen) == 3
    assert atomic.lock_timeout() > 0
