"""Fonts that cannot hurt (issue 24, item 2): a project's font files, made hostile.

Every font here is a built-in TTF (Atkinson Hyperlegible Bold, a pinned package's file) with
tables rewritten by ``struct``: a format-12 cmap of one group 0..0xFFFFFFFF (53 KB; it made
ReportLab fill memory to a 2 GB cap), no ``glyf`` (a traceback when the PDF was written), a
cmap mapping past the font's glyphs (the same), format-4 segments that overlap 4,000 times
over (ReportLab walked 262 million codes), and the same file with its advances doubled (a
project's own build of the built-in ``sans-bold``, same PostScript name). Each ends in one
line naming the file within 500 MB (a child process capped by tests/hostile/limits.py), or
builds; a built-in kit built after it, in the same process or from the same face cache, is
byte-identical to a clean build (generator/data/typefaces/sfnt.py reads the tables,
generator/data/typefaces/fonts.py registers every font under its own face name).
"""
from __future__ import annotations

import io
import os
import re
import struct
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reportlab.pdfbase.ttfonts import TTFont

from generator.core import paths
from generator.data.files import project
from generator.data.typefaces import fonts, sfnt
from generator.frontends import watch
from generator.frontends.cli import main
from generator.orchestration.options import BuildOptions
from tests.hostile.limits import one_error_line, pnp_limited_each

GAME = "moving-target"  # a built-in kit whose card backs and titles are set in sans-bold


# -- fonts made from a built-in one ----------------------------------------------------------

def tables(data: bytes) -> dict[bytes, bytes]:
    """A TrueType file's tables by tag."""
    count = struct.unpack_from(">H", data, 4)[0]
    found = {}
    for at in range(12, 12 + 16 * count, 16):
        tag, _, offset, length = struct.unpack_from(">4sIII", data, at)
        found[tag] = data[offset:offset + length]
    return found


def sfnt_file(parts: dict[bytes, bytes]) -> bytes:
    """Tables back into a file (checksums left 0: neither parser checks them)."""
    tags = sorted(parts)
    offset = 12 + 16 * len(tags)
    directory, body = b"", b""
    for tag in tags:
        directory += struct.pack(">4sIII", tag, 0, offset + len(body), len(parts[tag]))
        body += parts[tag] + b"\0" * (-len(parts[tag]) % 4)
    return struct.pack(">IHHHH", 0x00010000, len(tags), 0, 0, 0) + directory + body


def original() -> dict[bytes, bytes]:
    return tables(fonts.font_files()["sans-bold"].read_bytes())


def changed(**parts: bytes | None) -> bytes:
    """The built-in sans-bold with tables replaced (``OS_2`` for ``OS/2``) or removed."""
    found = original()
    for name, data in parts.items():
        tag = name.replace("OS_2", "OS/2").replace("CFF", "CFF ").encode("ascii")[:4]
        if data is None:
            found.pop(tag, None)
        else:
            found[tag] = data
    return sfnt_file(found)


def cmap(fmt: int, groups: list[tuple[int, int, int]], count: int | None = None) -> bytes:
    """A cmap of one (3, 10) subtable of format 12 or 13: (start, end, glyph) groups."""
    body = b"".join(struct.pack(">III", *group) for group in groups)
    sub = struct.pack(">HHIII", fmt, 0, 16 + len(body), 0,
                      len(groups) if count is None else count) + body
    return struct.pack(">HHHHI", 0, 1, 3, 10, 12) + sub


def format4(segments: list[tuple[int, int]]) -> bytes:
    """A cmap of one (3, 1) format-4 subtable: (start, end) segments, idDelta 0."""
    n = len(segments)
    body = (struct.pack(f">{n}H", *(end for _, end in segments)) + b"\0\0"
            + struct.pack(f">{n}H", *(start for start, _ in segments))
            + bytes(2 * n) + bytes(2 * n))
    sub = struct.pack(">HHHHHHH", 4, (14 + len(body)) & 0xFFFF, 0, 2 * n, 0, 0, 0) + body
    return struct.pack(">HHHHI", 0, 1, 3, 1, 12) + sub


def doubled() -> bytes:
    """sans-bold with every advance twice as wide: same PostScript name, other metrics."""
    found = original()
    full = struct.unpack_from(">H", found[b"hhea"], 34)[0]
    hmtx = bytearray(found[b"hmtx"])
    for at in range(0, 4 * full, 4):
        width = struct.unpack_from(">H", hmtx, at)[0]
        struct.pack_into(">H", hmtx, at, min(0xFFFF, 2 * width))
    found[b"hmtx"] = bytes(hmtx)
    return sfnt_file(found)


def os2_with_fs_type(fs_type: int) -> bytes:
    os2 = bytearray(original()[b"OS/2"])
    struct.pack_into(">H", os2, 8, fs_type)
    return bytes(os2)


def bomb() -> bytes:
    return changed(cmap=cmap(12, [(0, 0xFFFFFFFF, 0)]))


def overlapping_segments() -> bytes:
    return changed(cmap=format4([(0, 0xFFFE)] * 4000 + [(0xFFFF, 0xFFFF)]))


def past_the_glyphs() -> bytes:
    """Every printable ASCII character mapped to glyph 60,000 of a 369-glyph font (the space
    left out: ReportLab's parse would stop at its missing advance before our check)."""
    return changed(cmap=cmap(13, [(0x21, 0x7E, 60000)]))


def every_code_point() -> bytes:
    """The most a cmap may map: all of Unicode, to one glyph (a last-resort font)."""
    return changed(cmap=cmap(13, [(0, 0x10FFFF, 1)]))


def starter(folder: Path, font: bytes, name: str = "Title") -> Path:
    """``pnp init``'s starter with ``fonts/<name>.ttf`` as its theme's title font."""
    assert main(["init", str(folder)]) == 0
    (folder / "fonts").mkdir()
    (folder / "fonts" / f"{name}.ttf").write_bytes(font)
    with (folder / "themes" / "starter.yaml").open("a", encoding="utf-8") as theme:
        theme.write(f"fonts:\n  title: {name}\n")
    return folder


# -- the table checks, one rule at a time -----------------------------------------------------

def test_every_built_in_and_shipped_font_passes_the_checks():
    """No false alarm: the built-in fonts and the Vera fonts ReportLab ships pass, and what
    ReportLab maps in each is a glyph of the font."""
    import reportlab

    faces = {key: fonts.register(key) for key in fonts.font_files()}  # parsed once a process
    faces.update({file.name: TTFont("probe", str(file)) for file
                  in sorted((Path(reportlab.__file__).parent / "fonts").glob("Vera*.ttf"))})
    assert len(faces) == 11
    for name, ttf in faces.items():
        source = fonts.font_files().get(name) or Path(reportlab.__file__).parent / "fonts" / name
        facts = sfnt.read(source.read_bytes())
        sfnt.check_glyph_ids(ttf.face.charToGlyph, facts)
        assert facts.num_glyphs == ttf.face.numGlyphs and sfnt.licence_note(facts) is None


def glyf_with_composite(part: int) -> dict[str, bytes]:
    """glyf and loca (short offsets) where glyph 1 is a composite made of glyph ``part``."""
    found = original()
    count = struct.unpack_from(">H", found[b"maxp"], 4)[0]
    composite = struct.pack(">hhhhhHHbb", -1, 0, 0, 0, 0, 0, part, 0, 0)
    glyf = bytes(12) + composite  # glyph 0: a 12-byte simple glyph (0 contours)
    offsets = [0, 12, 12 + len(composite)] + [12 + len(composite)] * (count - 2)
    head = bytearray(found[b"head"])
    struct.pack_into(">h", head, 50, 0)
    return {"glyf": glyf, "loca": struct.pack(f">{count + 1}H", *(o // 2 for o in offsets)),
            "head": bytes(head)}


def head_with(at: int, fmt: str, value: int) -> bytes:
    head = bytearray(original()[b"head"])
    struct.pack_into(fmt, head, at, value)
    return bytes(head)


HOSTILE = {
    "one group 0..0xFFFFFFFF": (bomb, r"cmap format 12 subtable maps more than 1,114,112 code "
                                      r"points \(U\+0000\.\.U\+FFFFFFFF\)"),
    "overlapping groups": (lambda: changed(cmap=cmap(12, [(65, 90, 1), (70, 100, 1)])),
                           r"groups out of order or overlapping \(U\+0046\.\.U\+0064\)"),
    "a group backwards": (lambda: changed(cmap=cmap(13, [(90, 65, 1)])),
                          r"groups out of order or overlapping"),
    "more groups than bytes": (lambda: changed(cmap=cmap(12, [(65, 90, 1)], count=10**8)),
                               r"lists more groups than it holds"),
    "format 4 overlapping 4,000 times": (overlapping_segments,
                                         r"format 4 subtable maps 262,140,001 codes"),
    "format 4 backwards": (lambda: changed(cmap=format4([(0x50, 0x40), (0xFFFF, 0xFFFF)])),
                           r"segment 0x0050\.\.0x0040 runs backwards"),
    "format 2": (lambda: changed(cmap=struct.pack(">HHHHI", 0, 1, 3, 1, 12)
                                 + struct.pack(">HHH", 2, 518, 0) + bytes(512)),
                 r"format 2 subtable \(a legacy double-byte encoding\)"),
    "cmap version 1": (lambda: changed(cmap=b"\0\1\0\0" + cmap(13, [(65, 65, 1)])[4:]),
                       r"'cmap' table is not version 0"),
    "no glyf": (lambda: changed(glyf=None), r"cannot be used as a font \(no 'glyf' table\)$"),
    "CFF outlines in a TrueType file": (lambda: changed(glyf=None, CFF=b"\1\0\4\1"),
                                        r"has PostScript \(CFF\) outlines"),
    "no loca nor hmtx": (lambda: changed(loca=None, hmtx=None), r"no 'hmtx', 'loca' tables"),
    "loca past glyf": (lambda: changed(glyf=original()[b"glyf"][:1000]),
                       r"'loca' table points outside 'glyf'"),
    "a composite of glyph 60000": (lambda: changed(**glyf_with_composite(60000)),
                                   r"composite glyph 1 is made of glyph 60000; the font has 369"),
    "0 units per em": (lambda: changed(head=head_with(18, ">H", 0)), r"0 units per em"),
    "loca format 7": (lambda: changed(head=head_with(50, ">h", 7)), r"'loca' format 7"),
    "no glyphs": (lambda: changed(maxp=original()[b"maxp"][:4] + b"\0\0"
                                  + original()[b"maxp"][6:]), r"\(no glyphs\)"),
    "short hmtx": (lambda: changed(hmtx=original()[b"hmtx"][:100]),
                   r"'hmtx' table is shorter than its glyph count"),
    "short OS/2": (lambda: changed(OS_2=original()[b"OS/2"][:20]), r"'OS/2' table is cut short"),
}


@pytest.mark.parametrize("case", list(HOSTILE))
def test_hostile_tables_are_refused_with_their_reason(case):
    make, expected = HOSTILE[case]
    with pytest.raises(sfnt.SfntError, match=expected):
        sfnt.read(make())


def test_the_file_itself_is_bounded_before_any_table():
    data = changed()
    count = struct.unpack_from(">H", data, 4)[0]
    directory = data[:12 + 16 * count]
    with pytest.raises(sfnt.SfntError, match=r"table runs past the end of the file"):
        sfnt.read(data[:len(data) - 4000])
    with pytest.raises(sfnt.SfntError, match=r"table directory is empty or cut short"):
        sfnt.read(directory[:40])
    twice = bytearray(data)
    twice[12 + 16:12 + 20] = twice[12:16]  # the second record takes the first one's tag
    with pytest.raises(sfnt.SfntError, match=r"two '.{4}' tables"):
        sfnt.read(bytes(twice))
    collection = b"ttcf\0\1\0\0\0\0\0\1\0\0\0\x10" + b"OTTO" + bytes(12)
    with pytest.raises(sfnt.SfntError, match=r"has PostScript \(CFF\) outlines"):
        sfnt.read(collection)
    assert sfnt.read(b"ttcf\0\1\0\0\0\0\0\1\0\0\0\x10" + data[:12]
                     + b"".join(_shifted(data, 16))) == sfnt.read(data)


def _shifted(data: bytes, by: int):
    """The table records and tables of ``data`` as they are in a collection ``by`` bytes in."""
    count = struct.unpack_from(">H", data, 4)[0]
    for at in range(12, 12 + 16 * count, 16):
        tag, checksum, offset, length = struct.unpack_from(">4sIII", data, at)
        yield struct.pack(">4sIII", tag, checksum, offset + by, length)
    yield data[12 + 16 * count:]


def test_a_cmap_mapping_past_the_glyphs_is_refused_after_reportlab_reads_it():
    data = past_the_glyphs()
    facts = sfnt.read(data)  # the tables are sound; the mapping is what is wrong
    ttf = TTFont("probe", io.BytesIO(data))
    with pytest.raises(sfnt.SfntError, match=r"its cmap maps U\+0021 to glyph 60000; the font "
                                             r"has 369"):
        sfnt.check_glyph_ids(ttf.face.charToGlyph, facts)


def test_the_licence_flag_is_read():
    assert sfnt.read(changed()).fs_type == 0
    restricted = sfnt.read(changed(OS_2=os2_with_fs_type(0x0002)))
    assert restricted.fs_type == 2
    assert "restricted licence (OS/2 fsType 0x0002)" in (sfnt.licence_note(restricted) or "")
    for allowed in (0, 0x0004, 0x0008, 0x0100):
        assert sfnt.licence_note(sfnt.Facts(369, allowed)) is None
    assert sfnt.read(changed(OS_2=None)).fs_type == 0


@pytest.mark.slow
@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_whatever_passes_the_checks_reportlab_can_embed(data):
    """Bytes of the headers, the cmap and the composite records changed at random: the checks
    refuse the file with an SfntError, or ReportLab reads it, and whatever its cmap maps
    it can embed (the subset the PDF write makes)."""
    found = original()
    found.update({tag.encode(): table for tag, table in glyf_with_composite(2).items()})
    found[b"cmap"] = cmap(12, [(0x20, 0x7E, 3), (0x100, 0x1FF, 1)])
    font = bytearray(sfnt_file(found))
    regions = [(0, 12 + 16 * len(found))]
    for at in range(12, 12 + 16 * len(found), 16):
        offset, length = struct.unpack_from(">II", font, at + 8)
        regions.append((offset, min(length, 64)))
    for _ in range(data.draw(st.integers(1, 4))):
        start, length = data.draw(st.sampled_from(regions))
        at = start + data.draw(st.integers(0, max(0, length - 1)))
        font[at] = data.draw(st.integers(0, 255))
    try:
        facts = sfnt.read(bytes(font))
    except sfnt.SfntError:
        return
    try:
        ttf = TTFont("probe", io.BytesIO(bytes(font)))
    except Exception:  # ReportLab refuses it: reported at once, as before (fonts.py)
        return
    try:
        sfnt.check_glyph_ids(ttf.face.charToGlyph, facts)
    except sfnt.SfntError:
        return
    ttf.face.makeSubset([0x20, 0x41, 0x100, *sorted(ttf.face.charToGlyph)[:200]])


# -- the reproductions, whole builds under 500 MB ---------------------------------------------

REPRODUCTIONS = {
    "Bomb": (bomb, r"fonts/Bomb\.ttf cannot be used as a font \(its cmap format 12 subtable "
                   r"maps more than 1,114,112 code points"),
    "NoGlyf": (lambda: changed(glyf=None), r"fonts/NoGlyf\.ttf cannot be used as a font "
                                           r"\(no 'glyf' table\)"),
    "Past": (past_the_glyphs, r"fonts/Past\.ttf cannot be used as a font \(its cmap maps "
                              r"U\+0021 to glyph 60000"),
    "Segments": (overlapping_segments, r"fonts/Segments\.ttf cannot be used as a font \(its "
                                       r"cmap format 4 subtable maps 262,140,001 codes"),
}


@pytest.fixture(scope="module")
def reproduced(tmp_path_factory) -> dict[str, tuple[SimpleNamespace, Path, Path]]:
    """Each reproduction's starter and the widest font's (below), built one after another
    in one child capped at 500 MB (``pnp_limited_each``: the cap holds for each and for all
    of them together): by name, the result, the project folder and its output folder."""
    base = tmp_path_factory.mktemp("reproductions")
    made = {name: starter(base / name.lower(), make(), name)
            for name, (make, _) in REPRODUCTIONS.items()}
    made["Widest"] = starter(base / "widest", every_code_point(), "Widest")
    outs = {name: base / f"out-{name.lower()}" for name in made}
    done = pnp_limited_each([["build", folder, "--out", outs[name]]
                             for name, folder in made.items()])
    return {name: (result, made[name], outs[name]) for name, result in zip(made, done, strict=True)}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(REPRODUCTIONS))
def test_each_reproduction_ends_in_one_line_within_500_mb(reproduced, name):
    """Before: the bomb filled memory to the cap (17.7 s at 2 GB), no glyf and a glyph past
    the end were tracebacks at the PDF write, the segments ran for minutes. Now one line
    each, naming the theme line and the file, and nothing written."""
    _, expected = REPRODUCTIONS[name]
    done, _, out = reproduced[name]
    assert done.returncode == 2
    assert re.search(r"themes/starter\.yaml:\d+: fonts\.title: " + expected,
                     one_error_line(done))
    assert not list(out.rglob("*.pdf"))


@pytest.mark.slow
def test_the_most_a_cmap_may_map_builds_within_500_mb(reproduced):
    """All of Unicode mapped (a last-resort font, format 13): ReportLab holds a dict entry
    per code point, and the kit still builds under the cap."""
    done, _, out = reproduced["Widest"]
    assert done.returncode == 0, done.stderr[-2000:]
    assert (out / "widest" / "widest.pdf").stat().st_size > 10_000


# -- one project never changes another game's kit ---------------------------------------------

SEQUENCE = """
import sys
from generator.frontends.cli import main
out = sys.argv[1]
for index, game in enumerate(sys.argv[2:]):
    assert main(["build", game, "--out", f"{out}/{index}"]) == 0, game
"""


def build_in_one_process(out: Path, games: list[str], cache: Path | None) -> list[bytes]:
    """Build ``games`` one after another in one fresh process; their kits' bytes."""
    env = {**os.environ, "PNP_CACHE": "0"}
    if cache is not None:
        env.pop("PNP_CACHE")
        env["PNP_CACHE_DIR"] = str(cache)
    subprocess.run([sys.executable, "-c", SEQUENCE, str(out), *games], check=True,
                   capture_output=True, cwd=paths.ROOT, timeout=300, env=env)
    return [next((out / str(index)).rglob(f"{Path(game).name}.pdf")).read_bytes()
            for index, game in enumerate(games)]


@pytest.mark.slow
def test_a_font_named_like_a_built_in_one_changes_no_later_kit(in_tmp):
    """The built-in sans-bold with doubled advances as a project's ``fonts/sans-bold.ttf``
    (same PostScript name; the key it shadows is the standard theme's title font). A
    built-in game built after it in the same process (its faces drawn then, into an empty
    face cache), from that cache in a new process, and before and after it with no cache:
    each kit byte-identical to a clean build in a fresh process."""
    folder = in_tmp / "heavy"
    assert main(["init", str(folder)]) == 0
    (folder / "fonts").mkdir()
    (folder / "fonts" / "sans-bold.ttf").write_bytes(doubled())
    with project.using(project.Project(folder)):  # the project's titles measure twice as wide
        wide = fonts.text_width_mm("sans-bold", "Moving Day", 10)
    assert wide == pytest.approx(2 * fonts.text_width_mm("sans-bold", "Moving Day", 10),
                                 rel=0.01)
    cache = in_tmp / "cache"
    own, after = build_in_one_process(in_tmp / "after", [str(folder), GAME], cache)
    [warm] = build_in_one_process(in_tmp / "warm", [GAME], cache)
    clean, _, again = build_in_one_process(in_tmp / "clean", [GAME, str(folder), GAME], None)
    assert after == clean and warm == clean and again == clean
    assert b"AtkinsonHyperlegible-Bold" in own and own != clean  # its own file, embedded


@pytest.mark.slow
def test_watch_sees_an_edited_font(in_tmp):
    """``pnp watch`` rebuilds with the font's new content: the same file name, other bytes,
    the kit a fresh process makes of the edited project (nothing kept by name)."""
    folder = starter(in_tmp / "edited", changed())
    target = watch.find_target(str(folder))
    rebuild = watch.build_with(BuildOptions(out_dir=in_tmp / "out"))
    said: list[str] = []
    assert watch.run_build(target, rebuild, said.append, first=True)
    kit = in_tmp / "out" / "edited" / "edited.pdf"
    before = kit.read_bytes()
    (folder / "fonts" / "Title.ttf").write_bytes(doubled())
    assert watch.run_build(target, rebuild, said.append), said
    after = kit.read_bytes()
    assert after != before
    assert build_in_one_process(in_tmp / "fresh", [str(folder)], None) == [after]


# -- the licence flag ---------------------------------------------------------------------------

@pytest.mark.slow
def test_a_restricted_licence_is_a_preflight_warning_not_an_error(in_tmp, capsys):
    folder = starter(in_tmp / "licensed", changed(OS_2=os2_with_fs_type(0x0002)))
    assert main(["build", str(folder), "--out", str(in_tmp / "out")]) == 0
    capsys.readouterr()
    assert main(["verify", str(folder)]) == 0
    out = capsys.readouterr().out
    warning = next(line for line in out.splitlines() if "font licence" in line)
    assert "[WARN]" in warning and "fonts/Title.ttf declares a restricted licence" in warning
    assert main(["verify", str(folder), "--strict"]) == 1
