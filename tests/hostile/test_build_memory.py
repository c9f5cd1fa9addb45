"""Bounded memory (issue 24): the face cache never doubles a build's memory, a build past
the memory there is ends in one line (never a traceback), and an image is refused by its
decoded size before a pixel is decoded. The reproductions run as a user runs them, in a child
process whose address space is capped (tests/hostile/limits.py)."""
from __future__ import annotations

import struct
import tracemalloc
import zlib
from pathlib import Path
from types import SimpleNamespace

import pytest
from PIL import Image

from generator.core import primitives as p
from generator.data.files import resolve
from generator.data.translation import i18n
from generator.faces import face_cache, face_codec, template
from generator.frontends.cli import main
from generator.orchestration import output
from tests.hostile.limits import one_error_line, pnp_limited


def add_to(face: Path, yaml: str) -> int:
    """Append elements to a face template; the line of the first one added."""
    before = face.read_text(encoding="utf-8")
    face.write_text(before + yaml, encoding="utf-8")
    return len(before.splitlines()) + 1


# A path of 2,400 segments (its d under the 10,000-character limit of a text), drawn
# ``repeat`` times on every card: about 4.3 MB of drawn faces per repetition for the deck.
PATH_D = "M0 0" + "".join(f"L{i % 9} {(i * 7) % 9}" for i in range(2400))


def heavy_cards(starter: Path, repeat: int) -> None:
    add_to(starter / "faces" / "card.yaml",
           f'  - each: "{{{{ range({repeat}) }}}}"\n    do:\n'
           f'      - path: {{d: "{PATH_D}", stroke: "#000000", width: 0.1}}\n')


# -- a build past the memory there is: one line --------------------------------------------

@pytest.mark.slow
def test_a_template_that_draws_900_mb_of_paths_is_refused_at_its_line(starter):
    """The issue's: a template within every other limit drew ~900 MB of paths (15 s of CPU
    to reach a 500 MB cap, then a MemoryError). A path weighs one primitive more per two
    segments (core/primitives.weight), so the face's primitive limit refuses it at the
    element, before the memory is spent."""
    line_no = add_to(starter / "faces" / "card.yaml", "")
    heavy_cards(starter, 100)  # ~900 MB of faces if the limits counted only primitives
    result = pnp_limited(["build", starter])
    assert result.returncode == 2
    line = one_error_line(result)
    assert f"faces/card.yaml:{line_no + 2}: " in line, line
    assert "more than 10,000 primitives" in line and "per two of its segments" in line, line
    assert "in one face (drawing 'Dawn')" in line, line


@pytest.mark.slow
def test_paths_within_the_face_limit_are_stopped_by_the_component_limit(starter):
    """Eight such paths a card stay within the face limit (8 x 1,201); eleven cards of them
    pass the component's 100,000 (about 30 MB of segments), named with the piece."""
    heavy_cards(starter, 8)
    result = pnp_limited(["build", starter])
    assert result.returncode == 2
    line = one_error_line(result)
    assert "game.yaml:" in line and "more than 100,000 primitives" in line, line
    assert "up to item 11 ('Full Moon')" in line, line


def test_weight_counts_segments_and_lines():
    segments = (("M", (0.0, 0.0)),) + (("L", (1.0, 1.0)),) * 9
    assert p.weight(p.Path(segments)) == 1 + 10 // p.PARTS_PER_PRIMITIVE
    lines = tuple((0.0, float(i), "word") for i in range(7))
    assert p.weight(p.Text(lines, "body", 8.0)) == 1 + 7 // p.PARTS_PER_PRIMITIVE
    assert p.weight(p.Rect(0, 0, 1, 1)) == 1
    face = p.Face(10, 10, 0, (p.Path(segments), p.Rect(0, 0, 1, 1)))
    assert p.face_weight(face) == 7


def test_out_of_memory_while_drawing_names_the_template_and_piece(starter, capsys,
                                                                 monkeypatch):
    def exhausted(_d: str) -> None:
        raise MemoryError

    monkeypatch.setattr(template, "parse_path", exhausted)
    add_to(starter / "faces" / "card.yaml", '  - path: {d: "M0 0L1 1", stroke: "#000000"}\n')
    assert main(["build", str(starter)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "faces/card.yaml: drawing 'Dawn' ran out of memory: the template draws too much" \
        in err, err


def test_out_of_memory_anywhere_else_is_one_line_exit_1(starter, capsys, monkeypatch):
    def exhausted(*_args: object, **_kwargs: object) -> None:
        raise MemoryError

    monkeypatch.setattr(output, "write_kit", exhausted)
    assert main(["build", str(starter)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: out of memory: ") and err.count("\n") == 1, err


# -- the face cache --------------------------------------------------------------------------

@pytest.mark.slow
def test_caching_a_large_component_does_not_double_the_builds_memory(starter):
    """Cached faces were encoded, decoded and written out with ``repr`` both ways before
    their size was checked: about three copies of a component's faces (the deck's ~40 MB
    here came to ~200 MB; this deck of ~30 MB, the most the primitive limits let one
    component hold, to ~150 MB). A token template that fails after the deck is drawn and
    stored ends the build before the PDF is drawn."""
    heavy_cards(starter, 3)
    line = add_to(starter / "faces" / "token.yaml",
                  '  - text: {x: 0, y: 0, w: 5, h: 5, text: "{{ nothing.here }}"}\n')
    cache = starter.parent / "cache"
    result = pnp_limited(["build", starter], limit_mb=120,
                         env={"PNP_CACHE": "1", "PNP_CACHE_DIR": str(cache)})
    assert result.returncode == 2
    assert f"faces/token.yaml:{line}: " in one_error_line(result)
    assert list(cache.glob("faces-*.json")), "the deck's faces were stored"


def fake_component(faces: int) -> SimpleNamespace:
    return SimpleNamespace(id="deck", kind="card", name="Cards", face="card", back=None,
                           shape="rect", params={}, label="", size=SimpleNamespace(w=63, h=88),
                           items=[SimpleNamespace(data={"n": i}, count=1)
                                  for i in range(faces)])


def drawn_faces(count: int, segments: int) -> list[p.Face]:
    return [p.Face(63.5, 88.9, 3.0, (p.Path(tuple(
        ("L", (i + 0.123456789, j + 0.987654321)) for j in range(segments)), None,
        "#000000", 0.1),), f"card {i}") for i in range(count)]


def cache_peak(faces: list[p.Face], folder: Path) -> tuple[int, list[Path]]:
    """Bytes the face cache allocated at its peak while looking up and storing ``faces``
    (drawn before: drawing costs nothing here), once what it reads once per process (the
    code's digest of its key) has been read; and the faces entries it wrote."""
    face_cache.drawn("warm", fake_component(1), SimpleNamespace(w=1, h=1),
                     lambda: (drawn_faces(1, 1), None), i18n.current(), False)
    before = set(folder.glob("faces-*.json"))
    tracemalloc.start()
    try:
        face_cache.drawn("game", fake_component(len(faces)), SimpleNamespace(w=63, h=88),
                         lambda: (faces, None), i18n.current(), False)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return peak, sorted(set(folder.glob("faces-*.json")) - before)


def test_faces_too_large_to_keep_are_skipped_before_a_copy_is_made(fresh_cache, monkeypatch):
    monkeypatch.setattr(face_cache, "MAX_ENTRY", 256 << 10)
    tracemalloc.start()
    try:
        faces = drawn_faces(20, 1000)  # ~700 KB of JSON
        own = tracemalloc.get_traced_memory()[0]  # the faces' own memory: ~5 MB
    finally:
        tracemalloc.stop()
    assert face_codec.encoded_size(faces, 1 << 30) > 512 << 10
    peak, written = cache_peak(faces, fresh_cache)
    assert peak < own / 50, (peak, own)
    assert written == []


@pytest.mark.slow
def test_faces_kept_are_written_a_face_at_a_time_and_come_back(fresh_cache):
    tracemalloc.start()
    try:
        faces = drawn_faces(40, 500)
        own = tracemalloc.get_traced_memory()[0]  # the faces' own memory
    finally:
        tracemalloc.stop()
    peak, written = cache_peak(faces, fresh_cache)
    assert peak < own / 5, (peak, own)  # a face's copies at a time, never all (was over 2x)
    stored = [f for f in written if "inputs" not in f.name]
    size = face_codec.encoded_size(faces, 1 << 30)
    assert len(stored) == 1 and abs(stored[0].stat().st_size - size) < size / 50
    again, _ = face_cache.drawn("game", fake_component(40), SimpleNamespace(w=63, h=88),
                                lambda: pytest.fail("drawn again"), i18n.current(), False)
    assert again == faces


def test_the_size_estimate_is_close_to_the_written_size():
    import json

    faces = drawn_faces(3, 50) + [p.Face(10, 20, 3.0, (p.Rect(1, 2, 3, 4, "#000000"),
                                                       p.Text(((1.5, 2, "Hé"),), "sans", 9,
                                                              "#000000")), "x")]
    written = len(json.dumps(face_codec.encode(faces), ensure_ascii=False,
                             separators=(",", ":")).encode())
    assert abs(face_codec.encoded_size(faces, 1 << 30) - written) <= written / 50
    assert face_codec.encoded_size(faces, 100) in range(101, 2000)  # stops once past


# -- images: by decoded size, before decoding -------------------------------------------------

def tiff16(path: Path, w: int, h: int) -> Path:
    """The issue's picture: a grey TIFF of w x h 16-bit pixels, deflated in one strip (a
    few hundred KB), written a row at a time so making it costs no memory either."""
    packer = zlib.compressobj(9)
    row = bytes(2 * w)
    strip = b"".join([*(packer.compress(row) for _ in range(h)), packer.flush()])
    strip += b"\0" * (len(strip) % 2)  # the directory starts on a word boundary
    tags = [(256, 4, w), (257, 4, h), (258, 3, 16), (259, 3, 8), (262, 3, 1), (273, 4, 8),
            (277, 3, 1), (278, 4, h), (279, 4, len(strip))]
    directory = struct.pack("<H", len(tags)) + b"".join(
        struct.pack("<HHII", tag, kind, 1, value) if kind == 4
        else struct.pack("<HHIHH", tag, kind, 1, value, 0) for tag, kind, value in tags)
    path.write_bytes(b"II*\0" + struct.pack("<I", 8 + len(strip)) + strip + directory
                     + b"\0\0\0\0")
    return path


@pytest.mark.slow
def test_a_16_bit_tiff_is_refused_by_its_decoded_size_within_500_mb(starter):
    """297 KB on disk, 200 MB decoded: the build reached 1.23 GB."""
    (starter / "art").mkdir()
    tiff = tiff16(starter / "art" / "deep.tif", 10_000, 10_000)
    assert tiff.stat().st_size < 400_000
    line = add_to(starter / "faces" / "card.yaml",
                  "  - image: {path: art/deep.tif, x: 5, y: 5, w: 20, h: 20}\n")
    result = pnp_limited(["build", starter])
    assert result.returncode == 2
    error = one_error_line(result)
    assert f"faces/card.yaml:{line}: " in error and "art/deep.tif is 10000 x 10000 pixels " \
        "of 2 bytes each (200 MB decoded); the limit is 100 MB" in error, error


@pytest.mark.parametrize(("mode", "w", "refused"), [
    ("RGB", 100, False), ("RGBA", 75, False), ("RGBA", 76, True), ("I;16", 150, False),
    ("I;16", 151, True), ("L", 300, False), ("I", 76, True),
])
def test_images_are_bounded_by_pixels_times_bytes_per_pixel(tmp_path, monkeypatch, mode, w,
                                                            refused):
    monkeypatch.setattr(resolve, "MAX_IMAGE_DECODED", 30_000)
    file = tmp_path / "pic.tif"
    Image.new(mode, (w, 100)).save(file)
    if refused:
        with pytest.raises(resolve.Refused, match=f"{w} x 100 pixels of "
                                                  f"{resolve.pixel_bytes(mode)} bytes each"):
            resolve.check_image(str(file), "v")
    else:
        resolve.check_image(str(file), "v")


def test_bytes_per_pixel_are_pillows_own_figures():
    assert [resolve.pixel_bytes(m) for m in ("1", "L", "P", "LA", "RGB", "RGBA", "CMYK",
                                             "I;16", "I", "F")] == [1, 1, 1, 2, 3, 4, 4, 2,
                                                                    4, 4]


# -- PNG export of large pictures ------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("w, h", [(10_000, 10_000), (12_000, 8)],
                         ids=["100-megapixel-grey", "a-sliver-cover-fitted"])
def test_pictures_too_large_for_rgba_export_within_500_mb(starter, w, h):
    """An allowed 100-megapixel grey picture was converted to RGBA whole (400 MB more) and a
    12,000 x 8 one cover-fitted into a 20 mm box was resized whole (a 7-gigapixel tile):
    ``pnp png`` ran out of memory. Now only the shown part, reduced a band at a time."""
    (starter / "art").mkdir()
    Image.new("L", (w, h), 128).save(starter / "art" / "grey.png")
    add_to(starter / "faces" / "card.yaml",
           '  - image: {path: art/grey.png, x: 5, y: 30, w: "{{ W - 10 }}", h: 20, '
           'fit: cover}\n')
    result = pnp_limited(["png", starter])
    assert result.returncode == 0, result.stderr[-2000:]
    with Image.open(next((starter / "output").rglob("*-front.png"))) as card:
        # a point inside the picture's box prints the picture's grey
        x, y = (round((mm + 3.175) / 25.4 * 300) for mm in (31.75, 40))
        assert card.convert("L").getpixel((x, y)) == 128
