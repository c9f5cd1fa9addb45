"""Every file a data file, theme or template names is found here, and nowhere else.

Game data, themes, face templates and icons come from strangers, so a name in them is never
joined to a folder and opened as it stands. This module turns a name or a relative path into
a file and refuses anything that would leave the folder the file belongs to:

- a face template, ``face: playing-card`` (a name): ``<name>.yaml`` in the project's
  ``faces/``, else in the built-in ``templates/faces/`` (the folders come from
  generator/data/files/project.py, the one place that decides where things are found; each folder is
  confined on its own, so a name can never lead from one into another);
- an icon, ``icon: {name: spade}`` (a name): the project's ``icons/``, then ``templates/icons/``;
- a theme, ``theme: standard`` (a name): the project's ``themes/``, then ``templates/themes/``;
- a theme file, ``--theme path/to/mine.yaml``: anywhere the user points (the user's choice),
  but what it names is confined like the rest; ``theme: themes/mine.yaml`` in a data file:
  a .yaml file in the data file's folder (or below it);
- ``extends:`` in a theme: a theme name (as above), or a .yaml file in the extending file's
  folder (or below it);
- ``include: [decktet.yaml]`` in a data file: a .yaml file in the data file's folder (or
  below it);
- an image, ``image: {path: art/moon.png}``: a file in the folder of the game data file
  being built (path written relative to that folder; ``allow_game_folder`` is called by the
  loader), in the project's ``art/``, or in the built-in ``art/`` folder (path written
  relative to the built-in root, as ``art/moon.png``).

Names match ``NAME`` (lower-case letters, digits, ``-`` and ``_``; at most 64 characters).
Paths are relative (no drive, no leading ``/``), at most ``MAX_PATH`` characters, and are
resolved with symlinks followed *before* the folder check, so neither ``..`` nor a symlink
can leave the folder. Devices, FIFOs and folders are refused: only regular files are read.

Every file looked for is noted by its content (generator/core/context.py's ``version``: absent
ones too, so a file that would now shadow the one found is seen), and the face cache keys a
face on what it read (generator/faces/face_cache.py).

Images are also checked once per file version (cached on path and content): Pillow
must open, verify and fully decode them, their format must be PNG, JPEG, WebP, GIF or TIFF,
and they must be at most ``MAX_IMAGE_SIDE`` pixels a side, ``MAX_IMAGE_PIXELS`` pixels in
all (Pillow's own decompression-bomb limit is set to the same figure) and ``MAX_IMAGE_DECODED``
bytes decoded (pixels x bytes per pixel), all read from the header before decoding. An
``.svg`` path is found the same way (``svg_file``) and read by generator/data/design/svg_scan.py,
which bounds and checks it (drawn as vectors: generator/data/design/svg.py); compressed ``.svgz`` is
refused.

Functions raise ``Refused`` (a ValueError) with a message in the user's terms; the caller
knows the file, line and field and turns it into a ``DataError``.
"""
from __future__ import annotations

import os
import stat
import warnings
from collections.abc import Iterable, Sequence
from pathlib import Path, PurePosixPath, PureWindowsPath

from PIL import Image, ImageMode

from generator.core import context, memo, paths
from generator.core.words import said
from generator.data.files.project import NAME, NAME_RULE  # what a name may be: decided there

MAX_PATH = 255
MAX_IMAGE_BYTES = 50 * 1024 * 1024
MAX_IMAGE_SIDE = 12_000
MAX_IMAGE_PIXELS = 100_000_000
# Pixels x bytes per pixel of the decoded picture: what decoding it allocates, known from its
# header before decoding (a 297 KB TIFF of 10,000 x 10,000 16-bit pixels decodes to 200 MB,
# then the PDF's RGB copy and its compressed stream: a build past 1.2 GB). At the limit a
# build stays well inside 500 MB.
MAX_IMAGE_DECODED = 100_000_000
IMAGE_FORMATS = ("PNG", "JPEG", "WEBP", "GIF", "TIFF")
SVG_MESSAGE = "the file is SVG, not a raster image: name it .svg to draw it as vectors"

# Pillow refuses images above twice this when opening them, and warns above it; we check the
# size ourselves first so the message is ours, but the global guards the renderers too.
Image.MAX_IMAGE_PIXELS = MAX_IMAGE_PIXELS


class Refused(ValueError):
    """A name or path that may not be used; the message says why."""


# -- names and folders ---------------------------------------------------------------------

def check_name(name: object, what: str) -> str:
    """``name`` if it is a plain name (no path), else Refused."""
    if not isinstance(name, str) or not NAME.match(name):
        shown = repr(name) if len(repr(name)) <= 80 else repr(name)[:77] + "..."
        raise Refused(f"{what} {shown} is not {NAME_RULE}")
    return name


def inside(path: Path, folder: Path) -> bool:
    """Whether resolved ``path`` is ``folder`` or below it (both resolved, symlinks followed)."""
    return path.is_relative_to(folder.resolve())


def _known(folder: Path, types: tuple[str, ...] = (".yaml",)) -> str:
    try:
        names = sorted({p.stem for p in folder.iterdir()
                        if p.suffix in types and NAME.match(p.stem)})
    except OSError:
        names = []
    return ", ".join(names[:60]) or "none"


def suffixes(what: str) -> tuple[str, ...]:
    """The file types a name may stand for: an icon is ``<name>.yaml`` (our own dialect) or
    ``<name>.svg`` (generator/data/design/svg.py); everything else is ``<name>.yaml``."""
    return (".yaml", ".svg") if what == "icon" else (".yaml",)


def _regular(path: Path) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def named_file(name: object, folder: Path, what: str, named: str = "") -> Path:
    """``<folder>/<name>.yaml`` for a valid name whose file exists inside ``folder``
    (``named`` goes between what and name in the not-found message: "no icon named 'x'")."""
    check_name(name, what)
    found = []
    for suffix in suffixes(what):
        file = (folder / f"{name}{suffix}").resolve()
        if not inside(file, folder):
            raise Refused(f"{what} {said(name)} leads outside {_show(folder)}")
        context.version(file)  # looked for: a face drawn from it depends on it, found or not
        if _regular(file):
            found.append(file)
    if not found:
        raise Refused(f"no {what} {named}{said(name)} in {_show(folder)} "
                      f"(have: {_known(folder, suffixes(what))})")
    if len(found) > 1:
        raise Refused(f"both {' and '.join(f.name for f in found)} are in {_show(folder)}: "
                      f"keep one, so that {what} {said(name)} means one drawing")
    return found[0]


def template_file(name: object, folder: Path | None, field: str) -> Path:
    """A face template or icon file by name, as a DataError naming ``field`` when refused
    (the file it would be, when the name itself is fine). ``folder`` (an including
    template's folder) is searched before the project's and the built-in folders.

    Faces draw hundreds of icons: a name found in the same folders is looked up (and
    confined) once, and the files it looked at are asked for again at each use (a memo
    ``tracked`` by generator/core/memo.py: an edit, or a new file that now shadows, is seen)."""
    from generator.core.errors import DataError
    from generator.data.files import project

    kind = "faces" if field == "face" else "icons"
    try:
        search = tuple(project.folders(kind))
    except project.ProjectError as exc:
        raise DataError(folder or project.builtin(kind), None, field, str(exc)) from None
    if not isinstance(name, str):
        return _template_file(name, folder, field, kind)
    return _found_template(name, folder, field, kind, search)


@memo.tracked(maxsize=1024)
def _found_template(name: str, folder: Path | None, field: str, kind: str,
                    _search: tuple[Path, ...]) -> Path:
    """``_template_file`` memoised on the folders searched (a refusal is never cached)."""
    _own_folder_to_come(kind)
    return _template_file(name, folder, field, kind)


template_file.cache_clear = _found_template.cache_clear  # type: ignore[attr-defined]


def _own_folder_to_come(kind: str) -> None:
    """A project with no ``kind`` folder yet: note that it has none (its listing), so a
    lookup made now is made again once the folder is created and may shadow a built-in."""
    from . import project

    root = project.current().root
    if root is not None and kind != "games" and not (root / kind).is_dir():
        context.listing_version(root / kind)


def _template_file(name: object, folder: Path | None, field: str, kind: str) -> Path:
    from generator.core.errors import DataError
    from generator.data.files import project

    what, named = ("face template", "") if field == "face" else ("icon", "named ")
    if folder is None:
        search = None
    else:  # beside the including file first, then where the project looks
        try:
            search = [folder, *(f for f in project.folders(kind) if f != folder)]
        except project.ProjectError as exc:
            raise DataError(folder, None, field, str(exc)) from None
    try:
        return located(name, kind, what, named, folders=search)
    except Refused as exc:
        first = folder or project.builtin(kind)
        shown = first / f"{name}.yaml" if NAME.match(str(name)) else first
        raise DataError(shown, None, field, str(exc)) from None


def located(name: object, kind: str, what: str, named: str = "",
            folders: Sequence[Path] | None = None, skip: Path | None = None) -> Path:
    """``<name>.yaml`` from the first of ``folders`` (default: the project's then the
    built-in folder of ``kind``, from generator/data/files/project.py) that has it; each folder
    confines its own files. ``skip`` passes over one file (a project theme that shadows a built-in
    one and extends it by the same name). Not found: Refused listing the names of every folder."""
    from generator.data.files import project

    check_name(name, what)
    try:
        search = list(folders) if folders is not None else project.folders(kind)
    except project.ProjectError as exc:
        raise Refused(str(exc)) from None
    for folder in search:
        try:
            file = named_file(name, folder, what, named)
        except Refused as exc:
            if str(exc).startswith("no "):
                continue  # not in this folder: try the next
            raise
        if skip is not None and file == skip.resolve():
            continue
        return file
    where = " or ".join(_show(f) for f in search)
    known = sorted({n for f in search for n in _known(f, suffixes(what)).split(", ")
                    if n != "none"})
    raise Refused(f"no {what} {named}{said(name)} in {where} (have: {', '.join(known) or 'none'})")


def face_file(name: object, folder: Path | None = None) -> Path:
    if folder is not None:
        return named_file(name, folder, "face template")
    return located(name, "faces", "face template")


def icon_file(name: object, folder: Path | None = None) -> Path:
    if folder is not None:
        return named_file(name, folder, "icon", named="named ")
    return located(name, "icons", "icon", named="named ")


def theme_file(name: object, folder: Path | None = None, skip: Path | None = None) -> Path:
    if folder is not None:
        return named_file(name, folder, "theme")
    return located(name, "themes", "theme", skip=skip)


def relative_path(text: object, what: str) -> str:
    """A relative path as written in a file: a string, no drive or root, not too long."""
    if not isinstance(text, str) or not text.strip():
        raise Refused(f"expected the {what} as a relative path, got {said(text)}")
    if len(text) > MAX_PATH:
        raise Refused(f"{what} path is longer than {MAX_PATH} characters")
    if "\x00" in text or any(ord(c) < 32 for c in text):
        raise Refused(f"{what} path {said(text)} contains control characters")
    if PurePosixPath(text).is_absolute() or PureWindowsPath(text).anchor or text.startswith("~"):
        raise Refused(f"{what} path {said(text)} is absolute; give a relative path")
    return text


def confined(text: object, bases: Sequence[Path], roots: Iterable[Path], what: str,
             suffixes: tuple[str, ...] = ()) -> Path:
    """Resolve relative path ``text`` against each of ``bases`` in turn; the first regular
    file found inside one of ``roots`` wins. Refused if it leaves them or does not exist."""
    rel = relative_path(text, what)
    if suffixes and not rel.lower().endswith(suffixes):
        raise Refused(f"{what} {said(rel)} must be a {' or '.join(suffixes)} file")
    allowed = [r.resolve() for r in roots]
    looked_inside = False
    led_out: Path | None = None  # a file there, whose link leads out of the roots
    for base in bases:
        try:
            candidate = (base / rel).resolve()
        except (OSError, RuntimeError):  # a symlink loop
            continue
        if not any(candidate.is_relative_to(root) for root in allowed):
            if led_out is None and _links_out(base, rel, allowed):
                led_out = base
            continue
        looked_inside = True
        context.version(candidate)  # looked for: absent now, it may shadow a later base
        if candidate.exists():
            if not _regular(candidate):
                raise Refused(f"{what} {said(rel)} is not a regular file")
            return candidate
    where = " or ".join(_show(r) for r in allowed)
    if led_out is not None:
        raise Refused(f"{what} {said(rel)} is a link leading outside {_show(led_out)} (files may "
                      f"only be read from {where}: copy the file in instead)")
    if not looked_inside:
        raise Refused(f"{what} {said(rel)} is outside {where} (files may only be read from there)")
    raise Refused(f"{what} {said(rel)} not found in {where}")


def _links_out(base: Path, rel: str, allowed: list[Path]) -> bool:
    """Whether ``base/rel``, written without ``..``, is inside the roots as written but a link
    on the way leads out: the file is there, where the user looks, and is refused for
    where it leads, not reported missing."""
    written = Path(os.path.normpath(base.resolve() / rel))
    return ".." not in PurePosixPath(rel).parts and os.path.lexists(written) and any(
        written.is_relative_to(root) for root in allowed)


def include_file(text: object, folder: Path) -> Path:
    """An included data file: a .yaml file in the including file's folder or below it."""
    return confined(text, [folder], [folder], "included file", (".yaml", ".yml"))


def extends_file(text: str, folder: Path) -> Path:
    """A theme file named by path in another theme: inside the naming theme's folder."""
    if Path(text).is_absolute() and Path(text).resolve().is_relative_to(folder.resolve()):
        text = str(Path(text).resolve().relative_to(folder.resolve()))
    return confined(text, [folder], [folder], "theme file", (".yaml", ".yml"))


def rules_file(text: object, folder: Path) -> Path:
    """A project's own rules engine (``rules: rules.py``, or a package ``rules: rules/``):
    the module, or the package's ``__init__.py``, inside the data file's folder (``..``, an
    absolute path and a symlink leading out are refused, like every file a project names).
    Found here, imported only by generator/rules/__init__.py and only in a trusted folder."""
    rel = relative_path(text, "rules engine")
    if rel.endswith("/"):
        return confined(rel + "__init__.py", [folder], [folder], "rules engine package",
                        (".py",))
    return confined(rel, [folder], [folder], "rules engine", (".py",))


# -- images --------------------------------------------------------------------------------

def allow_game_folder(folder: Path) -> None:
    """A game data file was loaded from ``folder``: the images of the game now being built
    may come from there (kept in the build's context, generator/core/context.py)."""
    context.current().game_folder = folder.resolve()


def _game_folder() -> list[Path]:
    """The folder of the game data file loaded last in this build (none before)."""
    found = context.current().game_folder
    return [] if found is None else [found]


def image_roots() -> list[Path]:
    """Where images may be read from: the current game's folder, then the art/ folders of
    the project in use (its own, then the built-in one)."""
    from generator.data.files import project

    try:
        art = project.folders("art")
    except project.ProjectError as exc:
        raise Refused(str(exc)) from None
    game = _game_folder()
    return [*game, *(a for a in art if a.resolve() not in game)]


def image_file(text: object) -> Path:
    """An image named by a template: confined, then opened and checked (once per file)."""
    roots = image_roots()
    rel = relative_path(text, "image")
    if rel.lower().endswith((".svg", ".svgz")):
        return svg_file(rel)
    # Relative to the game's folder (the project), or to the built-in root (``art/moon.png``).
    file = confined(rel, [*_game_folder(), paths.BUILTIN], roots, "image")
    check_image(str(file), context.version(file))
    return file


def svg_file(text: object) -> Path:
    """An SVG picture named by a template, found and confined as images are (its content is
    checked by generator/data/design/svg_scan.py when it is read)."""
    rel = relative_path(text, "image")
    if rel.lower().endswith(".svgz"):
        raise Refused(f"image {said(rel)} is compressed SVG (.svgz): save it as plain .svg")
    return confined(rel, [*_game_folder(), paths.BUILTIN], image_roots(), "image", (".svg",))


@memo.memo(maxsize=512)
def check_image(file: str, version: str | None) -> tuple[str, int, int]:
    """Open, verify and decode an image; its format, width and height. Cached per version
    (``context.version``: its content)."""
    try:
        size = os.stat(file).st_size
    except OSError as exc:
        raise Refused(f"image {_show(Path(file))} cannot be read ({exc.strerror})") from None
    if size > MAX_IMAGE_BYTES:
        raise Refused(f"image {_show(Path(file))} is {size / 1048576:.0f} MB; the limit is "
                      f"{MAX_IMAGE_BYTES // 1048576} MB")
    if size == 0:
        raise Refused(f"image {_show(Path(file))} is empty")
    with open(file, "rb") as fh:
        head = fh.read(512)
    if _looks_like_svg(head):
        raise Refused(SVG_MESSAGE)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(file) as image:
                fmt, (w, h) = image.format or "?", image.size
                _check_size(file, w, h, image.mode)
                if fmt not in IMAGE_FORMATS:
                    raise Refused(f"image {_show(Path(file))} is {fmt}; expected one of "
                                  f"{', '.join(IMAGE_FORMATS)}")
                image.verify()
            with Image.open(file) as image:  # verify() leaves the image unusable: reopen
                image.load()  # decodes every pixel: catches truncated and corrupt data
    except Refused:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise Refused(f"image {_show(Path(file))} is too large to decode (more than "
                      f"{MAX_IMAGE_PIXELS:,} pixels: a decompression bomb?)") from None
    except Image.UnidentifiedImageError:
        raise Refused(f"{_show(Path(file))} is not an image Pillow can read; expected one of "
                      f"{', '.join(IMAGE_FORMATS)}") from None
    except Exception as exc:  # Pillow raises many kinds of errors for broken files
        reason = str(exc) or type(exc).__name__
        raise Refused(f"image {_show(Path(file))} is corrupt or truncated ({reason})") from None
    return fmt, w, h


def _check_size(file: str, w: int, h: int, mode: str) -> None:
    """Refuse by the header's figures, before a pixel is decoded."""
    if w <= 0 or h <= 0:
        raise Refused(f"image {_show(Path(file))} has no pixels ({w} x {h})")
    if w > MAX_IMAGE_SIDE or h > MAX_IMAGE_SIDE or w * h > MAX_IMAGE_PIXELS:
        raise Refused(f"image {_show(Path(file))} is {w} x {h} pixels; the limit is "
                      f"{MAX_IMAGE_SIDE} a side and {MAX_IMAGE_PIXELS:,} in all "
                      "(a decompression bomb?)")
    each = pixel_bytes(mode)
    if w * h * each > MAX_IMAGE_DECODED:
        raise Refused(f"image {_show(Path(file))} is {w} x {h} pixels of {each} bytes "
                      f"each ({w * h * each / 1e6:,.0f} MB decoded); the limit is "
                      f"{MAX_IMAGE_DECODED / 1e6:,.0f} MB: save it smaller, or with 8 bits "
                      "per channel")


def pixel_bytes(mode: str) -> int:
    """Bytes a pixel of a Pillow mode takes decoded: its bands times each band's size, as
    Pillow describes the mode (``RGB`` 3, ``I;16`` 2, ``RGBA`` and ``I`` 4)."""
    try:
        described = ImageMode.getmode(mode)
    except KeyError:
        return 4  # a mode Pillow does not describe: as wide as its widest
    return len(described.bands) * int(described.typestr[2:])


def _looks_like_svg(head: bytes) -> bool:
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    return text.startswith(b"<") and b"<svg" in text


# -- helpers -------------------------------------------------------------------------------

def _show(path: Path) -> str:
    """A folder or file as the user knows it: relative to the built-in root when inside it."""
    try:
        return str(path.resolve().relative_to(paths.BUILTIN)) + ("/" if path.is_dir() else "")
    except ValueError:
        return str(path)

