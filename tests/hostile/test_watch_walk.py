"""The watch walk of named files visits each file once, with a total cap (issue 35, deliver 3).

``watch`` and ``serve`` follow the files a data file names (includes, spreadsheets, images)
into the YAML files among them. The walk had no memo and no total cap: 30 tiny files naming
each other were read 30^3 times, 45 s of CPU before the first build and again after every
save. Now each file is read once, and the walk stops at a total cap (files read, texts looked
at, files kept) with a note; the files found so far are still watched.

Assertions count the YAML reads, never seconds.
"""
from __future__ import annotations

import threading
from pathlib import Path

import pytest

from generator.core import yamlfile
from generator.frontends import watch
from generator.frontends.watch import MAX_NAMED, MAX_WALK_FILES, Target, walk_named


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Every YAML file the walk reads, in order."""
    seen: list[Path] = []
    real = yamlfile.load_yaml

    def counting(file: Path) -> yamlfile.YamlDoc:
        seen.append(Path(file))
        return real(file)

    monkeypatch.setattr(yamlfile, "load_yaml", counting)
    return seen


def mesh(folder: Path, count: int) -> list[Path]:
    """``count`` tiny YAML files, each naming every one of them (itself included)."""
    folder.mkdir()
    files = [folder / f"f{i}.yaml" for i in range(count)]
    body = "names:\n" + "".join(f"  - {file.name}\n" for file in files)
    for file in files:
        file.write_text(body, encoding="utf-8")
    return files


def test_files_naming_each_other_are_each_read_once(tmp_path: Path, reads: list[Path]) -> None:
    files = mesh(tmp_path / "mesh", 30)
    walk = walk_named(files[0])
    assert walk.found == {file.resolve() for file in files[1:]}
    assert walk.capped is None
    assert len(reads) == 30  # was 1 + 30 + 30^2 + 30^3 reads
    assert len(set(reads)) == 30


def test_a_long_chain_stops_at_the_depth_of_includes(tmp_path: Path, reads: list[Path]) -> None:
    folder = tmp_path / "chain"
    folder.mkdir()
    for i in range(10):
        (folder / f"c{i}.yaml").write_text(f"next: c{i + 1}.yaml\n", encoding="utf-8")
    walk = walk_named(folder / "c0.yaml")
    assert walk.found == {(folder / f"c{i}.yaml").resolve() for i in range(1, 5)}
    assert len(reads) == 4  # the data file and three levels of includes


def test_past_the_file_cap_the_walk_stops_with_a_note(tmp_path: Path,
                                                      reads: list[Path]) -> None:
    files = mesh(tmp_path / "many", MAX_WALK_FILES + 20)
    walk = walk_named(files[0])
    assert len(reads) == MAX_WALK_FILES
    assert walk.capped is not None and f"more than {MAX_WALK_FILES} YAML files" in walk.capped
    assert len(walk.found) == MAX_WALK_FILES + 19  # named by the first file: all watched


def test_past_the_kept_cap_the_files_found_so_far_are_watched(tmp_path: Path) -> None:
    folder = tmp_path / "wide"
    folder.mkdir()
    for i in range(MAX_NAMED + 50):
        (folder / f"t{i}.csv").write_text("name\nx\n", encoding="utf-8")
    data = folder / "game.yaml"
    data.write_text("tables:\n" + "".join(f"  - t{i}.csv\n" for i in range(MAX_NAMED + 50)),
                    encoding="utf-8")
    target = Target("wide", data)
    assert len(target.named) == MAX_NAMED
    assert target.capped == f"more than {MAX_NAMED} files named"
    assert target.concerns(data)


def test_watch_says_once_that_the_walk_stopped(tmp_path: Path) -> None:
    files = mesh(tmp_path / "noted", MAX_WALK_FILES + 1)
    target = Target("noted", files[0])
    lines: list[str] = []
    stop = threading.Event()

    def rebuild(_target: Target) -> tuple[Path, int, list[str]]:
        stop.set()  # one build, then the loop ends at once
        return tmp_path / "out" / "noted.pdf", 1, []

    watch.watch([target], rebuild, stop, report=lines.append, force_polling=True)
    notes = [line for line in lines if line.startswith("note:")]
    assert notes == [f"note: noted: more than {MAX_WALK_FILES} YAML files named; "
                     "watching the files found so far"]
