"""``pnp eject KIND NAME [DIR]`` (issue 27.8): a built-in face template, theme or icon copied
into a project, where it wins over the built-in one; never over a file of the project's; the
authoring reference documents every built-in face's fields."""
from __future__ import annotations

from pathlib import Path

import pytest

from generator.core import paths
from generator.frontends.cli import main
from generator.orchestration.exporters.reference_doc import default_target


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    assert main(["init", str(tmp_path / "g")]) == 0
    monkeypatch.chdir(tmp_path / "g")
    return tmp_path / "g"


@pytest.mark.slow
def test_an_ejected_icon_is_the_projects_to_change(project, capsys):
    """The starter's moon suit draws the built-in suit-moons icon; ejected, the copy is
    drawn instead, and an edit to it reaches the kit."""
    assert main(["build", ".", "--out", "before"]) == 0
    assert main(["eject", "icon", "suit-moons"]) == 0
    copy = project / "icons" / "suit-moons.yaml"
    assert copy.read_bytes() == (paths.ICONS / "suit-moons.yaml").read_bytes()
    assert "icons/suit-moons.yaml <- built-in icon suit-moons" in capsys.readouterr().out
    assert main(["build", ".", "--out", "same"]) == 0
    assert (project / "same/g/g.pdf").read_bytes() == (project / "before/g/g.pdf").read_bytes()
    copy.write_text(copy.read_text(encoding="utf-8") + "  - circle: [50, 50, 5]\n",
                    encoding="utf-8")
    assert main(["build", ".", "--out", "after"]) == 0
    assert (project / "after/g/g.pdf").read_bytes() != (project / "before/g/g.pdf").read_bytes()


def test_eject_never_overwrites_and_names_what_it_knows(project, capsys):
    assert main(["eject", "face", "rules-page", str(project)]) == 0
    assert (project / "faces" / "rules-page.yaml").is_file()
    capsys.readouterr()
    for argv, says in (
            (["eject", "face", "rules-page"], "faces/rules-page.yaml is already in the project; "
                                              "'pnp eject' never overwrites your files"),
            (["eject", "face", "card"], "no built-in face template 'card'; did you mean "),
            (["eject", "theme", "../../etc"], "is not a name of lower-case letters"),
            (["eject", "face", "playing-card", str(project / "faces")],
             "no game data file in"),
            (["eject", "face"], "eject needs a name")):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.startswith("error: ") and says in err and "Traceback" not in err, err
        assert len(err.strip().splitlines()) == 1, err
    assert main(["eject", "face", "--list"]) == 0
    listed = capsys.readouterr().out.split()
    assert "rules-page" in listed and "playing-card" in listed
    assert main(["eject", "theme", "standard"]) == 0
    assert (project / "themes" / "standard.yaml").is_file()


def test_the_reference_documents_every_built_in_faces_fields():
    text = default_target().read_text(encoding="utf-8")
    section = text.split("## Built-in faces", 1)[1]
    for face in paths.FACES.glob("*.yaml"):
        assert f"\n### {face.stem}\n" in section, face.stem
    rules = section.split("### rules-page\n", 1)[1].split("\n### ", 1)[0]
    assert "item: {title: str 1..120" in rules and "section: {heading: str 1..120" in rules
