"""Trust bound to what runs (issue 35, deliver 2).

Trusting a folder records the sha256 of every Python file in it (generator/core/trust.py); a
project engine is compiled from the bytes read then, checked against that record
(generator/rules/__init__.py), never from a ``__pycache__``. So a trusted folder deleted and
replaced by a stranger's at the same path (whatever inode the file system hands it), an edited
or added Python file, or a shipped ``.pyc`` whose header matches ``rules.py`` run nothing the
user did not vouch for, and ``pnp trust --list`` says which folders changed since."""
from __future__ import annotations

import importlib.util
import json
import marshal
import os
import shutil
import struct
from pathlib import Path

import pytest

from generator.core import trust
from tests.designer import run, starter

STRANGER = '''import pathlib
pathlib.Path({marker!r}).write_text("ran")
'''
SIM = ("--n", "10", "--players", "2")


def test_a_trusted_folder_replaced_at_its_path_is_changed_and_not_run(in_tmp, config, capsys):
    """``pnp trust mygame; rm -rf mygame; unzip stranger.zip; pnp build mygame``: the
    stranger's rules.py is another digest, whatever the new folder's inode."""
    starter(in_tmp / "g")
    assert run(capsys, "trust", "g")[0] == 0
    assert trust.state(in_tmp / "g") == trust.TRUSTED
    shutil.rmtree(in_tmp / "g")
    starter(in_tmp / "g")
    marker = in_tmp / "ran"
    rules_py = in_tmp / "g" / "rules.py"
    rules_py.write_text(rules_py.read_text("utf-8") + STRANGER.format(marker=str(marker)),
                        encoding="utf-8")
    assert trust.state(in_tmp / "g") == trust.CHANGED
    listed = run(capsys, "trust", "--list")[1]
    assert "changed since trusted" in listed and "pnp trust" in listed, listed
    code, _, err = run(capsys, "build", "g")
    assert code == 0 and "changed since you trusted it" in err and "pnp trust g" in err, err
    code, _, err = run(capsys, "simulate", "g", *SIM)
    assert code == 2 and "changed since you trusted it" in err, err
    assert "Traceback" not in err and not marker.exists()
    # trusted again, as it is now: it runs
    assert run(capsys, "trust", "g")[0] == 0
    assert run(capsys, "simulate", "g", *SIM)[0] == 0 and marker.exists()


@pytest.mark.parametrize("change", ["edit", "add", "remove", "nested"])
def test_any_python_file_added_removed_or_edited_is_a_change(in_tmp, config, capsys, change):
    folder = starter(in_tmp / "g")
    (folder / "helpers").mkdir()
    (folder / "helpers" / "util.py").write_text("X = 1\n", encoding="utf-8")
    assert run(capsys, "trust", "g")[0] == 0
    if change == "edit":
        (folder / "rules.py").write_text((folder / "rules.py").read_text("utf-8") + "\n# x\n",
                                         encoding="utf-8")
    elif change == "add":
        (folder / "extra.py").write_text("", encoding="utf-8")
    elif change == "remove":
        (folder / "helpers" / "util.py").unlink()
    else:
        (folder / "helpers" / "util.py").write_text("X = 2\n", encoding="utf-8")
    assert trust.state(folder) == trust.CHANGED
    # what is not Python, or not importable, is no change
    starter(in_tmp / "h")
    assert run(capsys, "trust", "h")[0] == 0
    (in_tmp / "h" / "notes.txt").write_text("x", encoding="utf-8")
    (in_tmp / "h" / "__pycache__").mkdir()
    (in_tmp / "h" / "__pycache__" / "rules.cpython-311.pyc").write_bytes(b"x")
    assert trust.state(in_tmp / "h") == trust.TRUSTED


def shipped_pyc(source: Path, hostile: str) -> Path:
    """A ``__pycache__`` file for ``source`` holding ``hostile``'s code, its header made to
    match the source's modification time and size (archives keep mtimes): Python's own
    loader would run it in place of the source."""
    st = source.stat()
    code = compile(hostile, str(source), "exec")
    header = importlib.util.MAGIC_NUMBER + struct.pack("<III", 0, int(st.st_mtime) & 0xFFFFFFFF,
                                                      st.st_size & 0xFFFFFFFF)
    pyc = Path(importlib.util.cache_from_source(str(source)))
    pyc.parent.mkdir(exist_ok=True)
    pyc.write_bytes(header + marshal.dumps(code))
    os.utime(source, (st.st_atime, st.st_mtime))
    return pyc


def test_a_shipped_pyc_matching_rules_py_is_never_run(in_tmp, config, capsys):
    folder = starter(in_tmp / "g")
    marker = in_tmp / "ran"
    shipped_pyc(folder / "rules.py", STRANGER.format(marker=str(marker)))
    assert run(capsys, "trust", "g")[0] == 0  # the user read rules.py, and trusts it
    code, out, err = run(capsys, "simulate", "g", *SIM, "--jobs", "2")
    assert code == 0 and "seat 1:" in out, err
    assert not marker.exists()


def test_a_package_engine_runs_its_sources_not_shipped_pycs(in_tmp, config, capsys):
    folder = starter(in_tmp / "g")
    package = folder / "engine"
    package.mkdir()
    (folder / "rules.py").rename(package / "play.py")
    (package / "__init__.py").write_text("from .play import *  # noqa\n"
                                         "from .play import POINTS, State  # noqa\n", "utf-8")
    data = folder / "game.yaml"
    data.write_text(data.read_text("utf-8").replace("rules: rules.py", "rules: engine/"),
                    encoding="utf-8")
    marker = in_tmp / "ran"
    shipped_pyc(package / "play.py", STRANGER.format(marker=str(marker)))
    assert run(capsys, "trust", "g")[0] == 0
    code, out, err = run(capsys, "simulate", "g", *SIM)
    assert code == 0 and "seat 1:" in out, err
    assert not marker.exists()


def test_trust_list_says_each_folders_state(in_tmp, config, capsys):
    for name in ("same", "edited", "gone", "old"):
        starter(in_tmp / name)
        assert run(capsys, "trust", name)[0] == 0
    rules_py = in_tmp / "edited" / "rules.py"
    rules_py.write_text(rules_py.read_text("utf-8") + "\n# edited\n", encoding="utf-8")
    shutil.rmtree(in_tmp / "gone")
    # an entry of the first trust file (path and inode, no digests): changed since trusted
    file = config / "trust.json"
    data = json.loads(file.read_text("utf-8"))
    old = os.path.realpath(in_tmp / "old")
    data["folders"] = [e if e["path"] != old else {"path": old, "device": 1, "inode": 2}
                       for e in data["folders"]]
    file.write_text(json.dumps(data), encoding="utf-8")
    code, out, _ = run(capsys, "trust", "--list")
    lines = dict(line.split("  ", 1) for line in out.splitlines())
    assert code == 0
    assert lines[os.path.realpath(in_tmp / "same")] == "(trusted)"
    assert lines[os.path.realpath(in_tmp / "edited")].startswith("(changed since trusted")
    assert lines[old].startswith("(changed since trusted")
    assert lines[os.path.realpath(in_tmp / "gone")] == "(gone: not trusted)"
    code, _, err = run(capsys, "simulate", "old", *SIM)
    assert code == 2 and "changed since you trusted it" in err


def test_a_folder_with_too_much_python_is_refused_in_one_line(in_tmp, config, capsys,
                                                             monkeypatch):
    folder = starter(in_tmp / "g")
    monkeypatch.setattr(trust, "MAX_FILES", 5)
    for n in range(6):
        (folder / f"m{n}.py").write_text("", encoding="utf-8")
    code, _, err = run(capsys, "trust", "g")
    assert code == 2 and "too many to vouch for" in err and "Traceback" not in err, err
    assert err.count("\n") == 1
    assert not (config / "trust.json").exists()
