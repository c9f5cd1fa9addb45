"""Issue 24, deliver 1 and a low: output folders a project cannot redirect, a sweep that takes
only its own litter, and labels too long for a file name.

A stranger's project ships ``output/`` (or ``output/<id>``, ``output/preview``, the PNG set
folder) as a symbolic link to a victim folder. Each reproduction runs the command line and
compares the victim's whole tree (names, kinds, bytes, modes, link targets) before and after:
nothing outside may change, and the command ends with one line naming the link, exit 2. Only
an explicit ``--out`` is followed. The reproductions also run once in a child process under
``RLIMIT_AS`` (tests/hostile/limits.py), as a user runs them."""
from __future__ import annotations

import errno
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from generator.core import atomic, paths
from generator.core.atomic import (
    LITTER,
    NAME_MAX,
    UnsafeOutput,
    atomic_batch,
    atomic_dir,
    atomic_path,
    fit_name,
    make_folder,
    output_lock,
)
from generator.core.errors import reported
from generator.frontends import cli
from tests.hostile.limits import LIMIT_MB, one_error_line, pnp_limited

GAME = "starter"  # the id `pnp init` gives a folder of that name
PNG = ["--dpi", "72", "--jobs", "1"]
# Only the cards worth 1 get a label longer than a file name may be (the text on the card is
# the name; the label names the PNG file).
LONG_LABEL = ('    label: "{{ item.name }}"',
              '''    label: "{{ item.name }}{{ ' ' ~ 'x' * 300 if item.value == 1 else '' }}"''')


# -- helpers -------------------------------------------------------------------------------

def tree(folder: Path) -> dict[str, tuple]:
    """Everything under ``folder``, links not followed: name -> (kind, mode, bytes or target)."""
    found: dict[str, tuple] = {}
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = Path(root, name)
            info = path.lstat()
            key = str(path.relative_to(folder))
            if stat.S_ISLNK(info.st_mode):
                found[key] = ("link", os.readlink(path))
            elif stat.S_ISDIR(info.st_mode):
                found[key] = ("dir", stat.S_IMODE(info.st_mode))
            else:
                found[key] = ("file", stat.S_IMODE(info.st_mode), path.read_bytes())
    return found


def main(capsys, *argv) -> tuple[int, str]:
    code = cli.main([str(a) for a in argv])
    return code, capsys.readouterr().err


def one_error(err: str) -> str:
    assert "Traceback" not in err, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]


@pytest.fixture
def project(tmp_path, capsys) -> Path:
    folder = tmp_path / GAME
    assert cli.main(["init", str(folder)]) == 0
    capsys.readouterr()
    return folder


@pytest.fixture
def victim(tmp_path) -> Path:
    """A user's folder a project would like a build to write into: files named like a kit's
    outputs, a ``png/`` folder, and files of the shapes temporary names have."""
    folder = tmp_path / "victim"
    (folder / "png" / "deck").mkdir(parents=True)
    (folder / f"{GAME}.pdf").write_bytes(b"my thesis")
    (folder / f"{GAME}.kit.json").write_bytes(b"{}")
    (folder / "png" / "deck" / "photo.png").write_bytes(b"holiday")
    (folder / ".notes.99999-abc.part").write_bytes(b"a download in progress")
    (folder / f".notes.{atomic.MARKER}-{_dead_pid()}-abc.part").write_bytes(b"mine too")
    (folder / "private.txt").write_bytes(b"secret")
    (folder / "private.txt").chmod(0o600)
    return folder


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def _link(at: Path, to: Path) -> None:
    at.parent.mkdir(parents=True, exist_ok=True)
    at.symlink_to(to, target_is_directory=True)


COMMANDS = {"build": ["build"], "png": ["png", *PNG], "preview": ["preview", "--n", "1"]}
# (command, where the project's link is, relative to the project)
LINKED = [
    ("build", "output"),
    ("build", f"output/{GAME}"),
    ("png", "output"),
    ("png", f"output/{GAME}"),
    ("png", f"output/{GAME}/png"),
    ("preview", "output"),
    ("preview", "output/preview"),
]


# -- a project's output folders are never followed -----------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize(("command", "where"), LINKED, ids=[f"{c}: {w}" for c, w in LINKED])
def test_a_linked_output_folder_is_refused_and_nothing_outside_changes(
        command, where, project, victim, capsys):
    """The issue's reproduction: ``ln -s VICTIM PROJ/output/<id>``; ``pnp build PROJ``
    replaced VICTIM/<id>.pdf, ``pnp png PROJ`` deleted VICTIM/png/, the sweep a ``.*.part``."""
    target = victim / "png" if where.endswith("/png") else victim
    _link(project / where, target)
    before = tree(victim)
    code, err = main(capsys, *COMMANDS[command], project)
    line = one_error(err)
    assert code == 2
    assert str(project / where) in line, line
    assert "symlink" in line or "symbolic link" in line
    assert "--out" in line  # says how to write elsewhere
    assert tree(victim) == before
    assert (project / where).is_symlink()  # refused, not replaced: the user sees it


@pytest.mark.parametrize("where", ["output", f"output/{GAME}"])
def test_a_dangling_link_creates_nothing_where_it_points(where, project, tmp_path, capsys):
    nowhere = tmp_path / "made-by-the-attack"
    _link(project / where, nowhere)
    code, err = main(capsys, "build", project)
    assert code == 2 and str(project / where) in one_error(err)
    assert not nowhere.exists()


def test_an_output_folder_leading_outside_the_project_by_a_parent_link(project, victim,
                                                                       capsys):
    """``output`` a real folder, reached through a link above it: still outside."""
    (project / "inner").mkdir()
    _link(project / "inner" / "up", victim)
    (victim / "output").mkdir()
    _link(project / "output", project / "inner" / "up" / "output")
    before = tree(victim)
    code, err = main(capsys, "build", project)
    assert code == 2 and "leads outside the project" in one_error(err)
    assert tree(victim) == before


def test_an_explicit_out_is_followed_but_nothing_below_it(project, victim, tmp_path, capsys):
    """The user chose ``--out``: a link there is theirs and is followed. A link below it
    (``<out>/<id>``) is not the user's choice and is refused like a project's."""
    real = tmp_path / "real-out"
    real.mkdir()
    chosen = tmp_path / "chosen"
    _link(chosen, real)
    code, err = main(capsys, "build", project, "--out", chosen)
    assert code == 0, err
    assert (real / GAME / f"{GAME}.pdf").read_bytes().startswith(b"%PDF")

    inner = tmp_path / "out2"
    _link(inner / GAME, victim)
    before = tree(victim)
    code, err = main(capsys, "build", project, "--out", inner)
    assert code == 2 and str(inner / GAME) in one_error(err)
    assert tree(victim) == before


def test_a_built_in_games_output_folder_is_entered_too(tmp_path, victim, monkeypatch,
                                                       capsys):
    """Built-in games write to the built-in output folder: ``output/<id>`` a link there is
    refused the same way (the default root is followed, nothing below it); here through the
    simulation chart, the fourth writer."""
    monkeypatch.setattr(paths, "OUTPUT", tmp_path / "out")
    _link(paths.OUTPUT / "moving-target", victim)
    before = tree(victim)
    code, err = main(capsys, "simulate", "moving-target", "--n", "1", "--players", "2",
                     "--jobs", "1")
    assert code == 2 and str(paths.OUTPUT / "moving-target") in one_error(err)
    assert tree(victim) == before


def test_the_refusal_survives_a_worker_process_with_its_exit_code():
    import pickle

    error = pickle.loads(pickle.dumps(UnsafeOutput("/p/output/x")))
    assert isinstance(error, UnsafeOutput)
    assert reported(error) == (f"/p/output/x {atomic.LINKED}", 2)


# -- the sweep takes only its own litter ---------------------------------------------------

def test_the_sweep_removes_only_what_a_killed_build_of_this_folder_left(project, capsys):
    """A user's ``.*.part`` files in the output folder (a download, a file of the old
    temporary shape, one with our marker from a process that never held this folder's lock)
    survive a build; what the killed holder the lock file names left is swept."""
    game = project / "output" / GAME
    game.mkdir(parents=True)
    killed, stranger = _dead_pid(), _dead_pid()
    (game / atomic.LOCK_NAME).write_text(f"{killed}\n")  # left by a build killed mid-way
    litter = [f".{GAME}.pdf.{atomic.MARKER}-{killed}-a1b2c3d4.part",
              f".png.{atomic.MARKER}-{killed}-x9y8z7w6.part"]
    (game / litter[0]).write_bytes(b"half a pdf")
    (game / litter[1]).mkdir()
    (game / litter[1] / "a.png").write_bytes(b"png")
    users = {f".thesis.{killed}-abc.part": b"old shape", ".download.part": b"firefox",
             f".notes.{atomic.MARKER}-{stranger}-abc.part": b"never held the lock"}
    for name, data in users.items():
        (game / name).write_bytes(data)
    code, err = main(capsys, "build", project)
    assert code == 0, err
    for name in litter:
        assert not (game / name).exists()
    for name, data in users.items():
        assert (game / name).read_bytes() == data
    assert not (game / atomic.LOCK_NAME).exists()


def test_temporary_names_carry_the_marker_and_the_pid(tmp_path):
    with atomic_path(tmp_path / "kit.pdf") as tmp:
        match = LITTER.match(tmp.name)
        assert match and match["name"] == "kit.pdf" and int(match["pid"]) == os.getpid()
        assert f".{atomic.MARKER}-{os.getpid()}-" in tmp.name
    assert not LITTER.match(".notes.99999-abc.part")


# -- the mechanism: one place, descriptors, no link followed -------------------------------

def test_below_a_locked_folder_a_link_is_never_entered(tmp_path, victim):
    folder = tmp_path / "out" / "game"
    _link(folder / "sub", victim)
    before = tree(victim)
    with output_lock(folder):
        with pytest.raises(UnsafeOutput) as info, atomic_path(folder / "sub" / "x.pdf") as tmp:
            tmp.write_bytes(b"x")
        assert info.value.path == str(folder / "sub")
        with pytest.raises(UnsafeOutput):
            make_folder(folder / "sub" / "deeper")
        with pytest.raises(UnsafeOutput), atomic_dir(folder / "sub" / "png"):
            pass
        with pytest.raises(UnsafeOutput), atomic_dir(folder / "sub"):
            pass
    assert tree(victim) == before


def test_a_folder_swapped_for_a_link_while_a_file_is_made_is_noticed(tmp_path, victim,
                                                                     monkeypatch):
    """A racer swaps the output folder for a link between its check and the temporary
    file's creation: the file is found missing through the folder's descriptor, removed,
    and the write refused; the final rename would only ever happen inside the real folder."""
    folder = tmp_path / "out" / "game"
    folder.mkdir(parents=True)
    (folder / "kit.pdf").write_bytes(b"old kit")
    real = tempfile.mkstemp

    def racing(**options):
        moved = folder.with_name("game-moved")
        if not moved.exists():
            folder.rename(moved)
            folder.symlink_to(victim, target_is_directory=True)
        return real(**options)

    before = tree(victim)
    with output_lock(folder):
        monkeypatch.setattr(tempfile, "mkstemp", racing)
        with pytest.raises(UnsafeOutput), atomic_batch(), \
                atomic_path(folder / "kit.pdf") as tmp:
            tmp.write_bytes(b"new kit")
        monkeypatch.undo()
    assert tree(victim) == before
    assert (folder.with_name("game-moved") / "kit.pdf").read_bytes() == b"old kit"


def test_the_lock_file_lists_killed_holders_until_their_litter_is_gone(tmp_path):
    folder = tmp_path / "game"
    folder.mkdir()
    killed = _dead_pid()
    (folder / atomic.LOCK_NAME).write_text(f"{killed}\n")
    (folder / f".kit.pdf.{atomic.MARKER}-{killed}-abcdefgh.part").write_bytes(b"half")
    with output_lock(folder):
        assert (folder / atomic.LOCK_NAME).read_text().split() == [str(os.getpid())]
        assert sorted(p.name for p in folder.iterdir()) == [atomic.LOCK_NAME]


def test_a_file_where_an_output_folder_goes_is_not_a_folder(tmp_path):
    (tmp_path / "game").write_text("a file")
    with pytest.raises(atomic.OutputError) as info, output_lock(tmp_path / "game"):
        pass
    assert not isinstance(info.value, UnsafeOutput)
    assert str(info.value) == f"cannot write {tmp_path / 'game'}: not a folder"
    assert info.value.errno == errno.ENOTDIR


# -- long labels ---------------------------------------------------------------------------

def _png_names(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*.png"))


@pytest.mark.slow
def test_a_label_longer_than_a_file_name_is_shortened_keeping_its_index(project, tmp_path,
                                                                        capsys):
    """Was: ``File name too long`` (exit 1) and an empty folder left. Now every name fits in
    NAME_MAX bytes, keeps its index (so it stays unique and pairs with its back), and the
    names of the labels that fitted are exactly what they were."""
    plain = tmp_path / "plain"
    shutil.copytree(project, plain)
    data = project / "game.yaml"
    text = data.read_text(encoding="utf-8")
    assert text.count(LONG_LABEL[0]) == 1
    data.write_text(text.replace(*LONG_LABEL), encoding="utf-8")
    code, err = main(capsys, "png", project, *PNG)
    assert code == 0, err
    assert main(capsys, "png", plain, *PNG)[0] == 0
    long_names = _png_names(project / "output" / GAME / "png")
    plain_names = _png_names(plain / "output" / GAME / "png")
    assert len(long_names) == len(set(long_names)) == len(plain_names)
    changed = [(a, b) for a, b in zip(long_names, plain_names, strict=True) if a != b]
    assert changed, "no label was long"
    for new, old in changed:
        name = Path(new).name
        assert len(name.encode("utf-8")) <= NAME_MAX
        index = Path(old).name.split("-", 1)[0]
        assert name.startswith(f"{index}-") and "xxxxxxxx" in name
        assert name.endswith(("-front.png", "-back.png", ".png"))
    fronts = {n.removesuffix("-front.png") for n in long_names if n.endswith("-front.png")}
    backs = {n.removesuffix("-back.png") for n in long_names if n.endswith("-back.png")}
    # a back of its own still pairs with its front by name; one the deck shares is written
    # once, as back.png (one PNG per distinct face)
    assert backs <= fronts and (backs == fronts or any(n.endswith('/back.png') for n in long_names))


@given(st.text(min_size=0, max_size=400), st.integers(min_value=0, max_value=20))
def test_fit_name_fits_keeps_the_start_and_leaves_short_names_alone(stem, reserve):
    fitted = fit_name(stem, reserve=reserve)
    if len(stem.encode("utf-8")) + reserve <= NAME_MAX:
        assert fitted == stem
    else:
        assert len(fitted.encode("utf-8")) + reserve <= NAME_MAX
        assert stem.startswith(fitted) and fitted


def test_a_temporary_name_fits_for_any_final_name(tmp_path):
    name = fit_name("é" * 300, reserve=len("-front.png")) + "-front.png"
    assert len(name.encode("utf-8")) <= NAME_MAX
    with atomic_path(tmp_path / name) as tmp:
        assert len(tmp.name.encode("utf-8")) <= NAME_MAX
        tmp.write_bytes(b"x")
    assert (tmp_path / name).read_bytes() == b"x"


# -- the reproductions as a user runs them, memory capped ----------------------------------

LIMITED = [
    ("build", f"output/{GAME}", ["build"], 2),
    ("png", f"output/{GAME}", ["png", *PNG], 2),
    ("png set", f"output/{GAME}/png", ["png", *PNG], 2),
    ("long label", None, ["png", *PNG], 0),
]


@pytest.mark.slow
@pytest.mark.parametrize(("case", "where", "argv", "code"), LIMITED,
                         ids=[case for case, *_ in LIMITED])
def test_each_reproduction_within_the_memory_cap(case, where, argv, code, project, victim):
    if where is None:
        data = project / "game.yaml"
        data.write_text(data.read_text(encoding="utf-8").replace(*LONG_LABEL), "utf-8")
    else:
        _link(project / where, victim / "png" if where.endswith("/png") else victim)
    before = tree(victim)
    result = pnp_limited([*argv, project], LIMIT_MB)
    assert result.returncode == code, result.stderr[-2000:]
    if code:
        line = one_error_line(result)
        assert str(project / where) in line
    else:
        assert "Traceback" not in result.stderr, result.stderr[-2000:]
    assert tree(victim) == before
