"""``pnp i18n DIR --lang fr``: a project's catalogue written or brought up to date.

A translator works from a list of what to translate. This writes the project's catalogue
(``<project>/messages/<lang>.yaml``, generator/data/i18n_files.py) with:

- ``strings:``: the translations already there that the kit still prints, as they were, in
  the file's order; then every text the kit prints untranslated, in full, with an empty
  translation (``""`` prints the English until it is filled in) and a comment saying where
  it comes from (``# cards.csv: row 4, column name``), in the order verify lists them;
- ``furniture:``: as it was;
- ``obsolete:``: the translations of texts the kit no longer prints (a wording changed),
  moved here instead of deleted, with those already there; one the kit prints again goes
  back to ``strings:``.

The same inputs give the same bytes. The file is replaced atomically, and a file that changes
is copied to ``<lang>.yaml.bak`` first (comments of the user's are not kept in the new file);
a file that does not load as a catalogue is left alone and the problem reported (DataError).
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.core.atomic import atomic_file, make_folder
from generator.core.yamlfile import load_yaml

from .i18n_files import collapse, load_catalogue
from .project import Project, ProjectError
from .resolve import inside


@dataclass(frozen=True)
class Updated:
    """What ``update`` did: texts added (untranslated), translations kept, marked
    obsolete, and whether the file changed (and where its old text was kept)."""

    file: Path
    added: int
    kept: int
    obsolete: int
    changed: bool
    backup: Path | None


def _quoted(text: str) -> str:
    """A YAML double-quoted scalar (JSON's string syntax is one): any text, one line."""
    return json.dumps(text, ensure_ascii=False)


def catalogue_file(root: Path, lang: str) -> Path:
    """``<root>/messages/<lang>.yaml``, refused (ProjectError) when ``messages`` or the file
    leads outside the project (a symlink): what this writes stays in the project."""
    folder = Project(root).own("messages") or root / "messages"
    file = folder / f"{lang}.yaml"
    if file.exists() and not inside(file.resolve(), root):
        raise ProjectError(f"{file} leads outside the project {root} (a symlink?); pnp i18n "
                           "writes only inside it")
    return file


def update(file: Path, lang: str, wanted: Iterable[tuple[str, str]], used: set[str]
           ) -> Updated:
    """Write ``file`` from what it holds and the kit's untranslated texts ``wanted``
    ((English, where), in report order); ``used``: the catalogue texts (collapsed) the kit
    looked up and found, the translations to keep in ``strings:``."""
    old_text = file.read_text(encoding="utf-8") if file.is_file() else None
    strings: dict[str, Any] = {}
    furniture: dict[str, Any] = {}
    obsolete: dict[str, Any] = {}
    if old_text is not None:
        load_catalogue(file)  # a file that is no catalogue: its DataError, file untouched
        data = load_yaml(file).data or {}
        strings = dict(data.get("strings") or {})
        furniture = dict(data.get("furniture") or {})
        obsolete = dict(data.get("obsolete") or {})
    want = {collapse(english): (english, where) for english, where in wanted}
    kept: dict[str, Any] = {}
    gone: dict[str, Any] = {}
    for english, translated in strings.items():
        key = collapse(english)
        if translated in (None, ""):
            if key in want:  # still untranslated: listed below, with where it is
                continue
            continue  # untranslated and no longer printed: nothing to keep
        if key in used or key in want:
            kept[english] = translated
        else:
            gone[english] = translated
    revived = {english: translated for english, translated in obsolete.items()
               if collapse(english) in want and translated not in (None, "")}
    for english in revived:
        del obsolete[english]
    kept.update(revived)
    kept_keys = {collapse(english) for english in kept}
    added = [(english, where) for key, (english, where) in want.items() if key not in kept_keys]
    obsolete.update(gone)
    text = _render(lang, kept, added, furniture, obsolete)
    changed = text != old_text
    backup = None
    if changed:
        make_folder(file.parent)
        if old_text is not None:
            backup = file.with_name(file.name + ".bak")
            with atomic_file(backup) as handle:
                handle.write(old_text.encode("utf-8"))
        with atomic_file(file) as handle:
            handle.write(text.encode("utf-8"))
    return Updated(file, len(added), len(kept), len(gone), changed, backup)


def _entry(key: str, value: str) -> list[str]:
    """One ``key: value`` line; an explicit ``? key`` / ``: value`` pair for a key longer
    than YAML allows a plain one (1024 characters)."""
    if len(key) > 1000:
        return [f"  ? {key}", f"  : {value}"]
    return [f"  {key}: {value}"]


def _render(lang: str, kept: Mapping[str, Any], added: list[tuple[str, str]],
            furniture: Mapping[str, Any], obsolete: Mapping[str, Any]) -> str:
    lines = [f"# The {lang} translations of this project's texts (pnp i18n --lang {lang} "
             "adds what is missing).",
             '# Fill in each "": an empty translation prints the English (and verify '
             "lists it).", "strings:"]
    for english, text in kept.items():
        lines += _entry(_quoted(english), _quoted(str(text)))
    for english, where in added:
        lines += [f"  # {' '.join(where.split())}", *_entry(_quoted(english), '""')]
    if not kept and not added:
        lines[-1] = "strings: {}"
    if furniture:
        lines.append("furniture:")
        lines += [f"  {key}: {_quoted(str(text))}" for key, text in furniture.items()]
    if obsolete:
        lines.append("# Texts the kit no longer prints (a wording changed): kept for reference.")
        lines.append("obsolete:")
        for english, text in obsolete.items():
            lines += _entry(_quoted(str(english)), _quoted(str(text)))
    return "\n".join(lines) + "\n"
