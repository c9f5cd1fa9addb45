"""The files of translated kits: furniture messages and translation catalogues.

Two kinds of file, both YAML read through generator/core/yamlfile.py (bounded, every line
remembered, so every error names file:line):

- **Furniture messages**, ``templates/messages/<lang>.yaml``: a flat mapping ``key: text``
  of every sentence the layout prints (contents sheet, footers, rulers, calibration sheet).
  ``{name}`` placeholders are filled by ``fill`` (a regular expression, never ``str.format``,
  so a message can never reach an attribute of a value). The languages offered are these
  files; ``en`` is the source language.
- **Catalogues**: ``strings:`` (English source text -> translation) and optional
  ``furniture:`` (message keys overriding the built-in text). A built-in game's catalogue is
  ``card_data/messages/<game id>.<lang>.yaml``; a project's is ``<project>/messages/<lang>.yaml``
  (its ``messages/`` folder, confined like faces/ and icons/); the built-in shared templates'
  is ``templates/messages/faces.<lang>.yaml``.

English texts are matched after collapsing runs of spaces, tabs and line breaks (YAML folds
long strings its own way), so a folded catalogue key matches its folded source.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.core import context, memo, paths
from generator.core.errors import DataError
from generator.core.languages import SOURCE, languages, messages_folder
from generator.core.words import said
from generator.core.yamlfile import YamlDoc, load_yaml

KEY = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z0-9_]+)*$")
MAX_ENTRIES = 20_000  # per file
MAX_TEXT = 8_000  # characters per text, English or translated
_PLACEHOLDER = re.compile(r"\{([A-Za-z][A-Za-z0-9_]{0,40})\}")
_SPACES = re.compile(r"[ \t\r\n]+")


def collapse(text: str) -> str:
    """The form texts are matched in: runs of spaces and line breaks made one space."""
    return _SPACES.sub(" ", text).strip()


def fill(template: str, values: dict[str, Any]) -> str:
    """``{name}`` replaced by ``values[name]`` for the names given; anything else (``{0}``,
    ``{__class__}``, ``{a.b}``, a name not given) stays as written. The replacement text is
    never scanned again, so a value holding braces stays literal too."""
    if "{" not in template:
        return template
    return _PLACEHOLDER.sub(
        lambda m: str(values[m.group(1)]) if m.group(1) in values else m.group(0), template)


def placeholders(template: str) -> set[str]:
    return set(_PLACEHOLDER.findall(template))


def check_lang(lang: str) -> str:
    if lang not in languages():
        raise DataError(messages_folder(), None, "", f"no kit language {said(lang)}; have: "
                                                     f"{', '.join(languages())}")
    return lang


def _version(file: Path) -> tuple[Path, str | None]:
    """A file and its content's version (generator/core/context.py): what its memo is keyed by."""
    found = context.version(file)
    if found is None:
        file.stat()  # gone or unreadable: the OSError callers expect
    return file, found


def messages(lang: str) -> dict[str, str]:
    """The furniture messages of a language (a fresh copy: callers may overlay theirs)."""
    file = messages_folder() / f"{check_lang(lang)}.yaml"
    return dict(_messages_at(*_version(file)))


@memo.memo
def _messages_at(file: Path, version: str | None) -> dict[str, str]:
    doc = load_yaml(file)
    if not isinstance(doc.data, dict):
        raise doc.error((), "expected a mapping of message key: text")
    out: dict[str, str] = {}
    for key, text in doc.data.items():
        _check_key(doc, (key,), key)
        out[key] = _text(doc, (key,), text)
    return out


def _check_key(doc: YamlDoc, path: tuple[Any, ...], key: Any) -> None:
    if not isinstance(key, str) or not KEY.match(key) or len(key) > 80:
        raise doc.error(path, f"expected a message key (lower-case words joined by . or _), "
                              f"got {said(key, 60)}")


def _text(doc: YamlDoc, path: tuple[Any, ...], value: Any) -> str:
    if not isinstance(value, str):
        raise doc.error(path, f"expected text, got {type(value).__name__} {said(value, 60)} "
                              "(quote it)")
    if len(value) > MAX_TEXT:
        raise doc.error(path, f"text of {len(value)} characters; at most {MAX_TEXT}")
    return value


@dataclass(frozen=True)
class Catalogue:
    """One catalogue file: English (collapsed) -> (translation, line), and furniture
    overrides key -> (text, line)."""

    file: Path
    strings: dict[str, tuple[str, int | None]]
    furniture: dict[str, tuple[str, int | None]]


EMPTY = Catalogue(Path(""), {}, {})


def load_catalogue(file: Path | None) -> Catalogue:
    if file is None:
        return EMPTY
    english = _version(messages_folder() / f"{SOURCE}.yaml")[1]  # furniture keys checked
    return _catalogue_at(*_version(file), english)


@memo.memo
def _catalogue_at(file: Path, version: str | None, _english: str | None) -> Catalogue:
    doc = load_yaml(file)
    data = doc.data if doc.data is not None else {}
    if not isinstance(data, dict):
        raise doc.error((), "expected a mapping with strings: (English text: translation) "
                            "and optionally furniture: (message key: text)")
    unknown = [k for k in data if k not in SECTIONS]
    if unknown:
        raise doc.error((unknown[0],), f"unknown key {said(unknown[0], 40)}; a catalogue has "
                                       "strings:, furniture: and obsolete:")
    if not isinstance(data.get("obsolete") or {}, dict):
        raise doc.error(("obsolete",), "expected a mapping of English text: translation "
                                       "(texts the kit no longer prints, kept by pnp i18n)")
    strings: dict[str, tuple[str, int | None]] = {}
    raw = data.get("strings") or {}
    if not isinstance(raw, dict):
        raise doc.error(("strings",), "expected a mapping of English text: translation")
    if len(raw) > MAX_ENTRIES:
        raise doc.error(("strings",), f"{len(raw)} entries; at most {MAX_ENTRIES}")
    for english, translated in raw.items():
        path = ("strings", english)
        if not isinstance(english, str) or not english.strip():
            raise doc.error(path, f"expected the English text as the key, got {said(english, 60)}")
        _text(doc, path, english)
        if translated is None or translated == "":
            continue  # not translated yet (pnp i18n writes every text so): printed in English
        text = _text(doc, path, translated)
        if not text.strip():
            raise doc.error(path, f"empty translation of {said(english, 60)}")
        key = collapse(english)
        if key in strings:
            raise doc.error(path, f"{said(english, 60)} is translated twice (first on line "
                                  f"{strings[key][1]}; texts are compared with their spaces "
                                  "and line breaks collapsed)")
        strings[key] = (text, doc.line_of(path))
    furniture = _furniture(doc, data.get("furniture") or {})
    return Catalogue(file, strings, furniture)


SECTIONS = ("strings", "furniture", "obsolete")


def _furniture(doc: YamlDoc, raw: Any) -> dict[str, tuple[str, int | None]]:
    """Overrides of built-in message keys: the key must exist and keep its placeholders."""
    if not isinstance(raw, dict):
        raise doc.error(("furniture",), "expected a mapping of message key: text")
    known = messages(SOURCE)
    out: dict[str, tuple[str, int | None]] = {}
    for key, text in raw.items():
        path = ("furniture", key)
        _check_key(doc, path, key)
        if key not in known:
            raise doc.error(path, f"unknown message key {said(key)}; the keys are those of "
                                  f"{messages_folder() / 'en.yaml'}")
        value = _text(doc, path, text)
        want, got = placeholders(known[key]), placeholders(value)
        if want != got:
            raise doc.error(path, f"expected the placeholders {_braces(want)}, got "
                                  f"{_braces(got)}")
        out[key] = (value, doc.line_of(path))
    return out


def _braces(names: set[str]) -> str:
    return ", ".join("{" + n + "}" for n in sorted(names)) or "none"


# -- where catalogues are --------------------------------------------------------------------

def game_catalogue_file(source: Path, game_id: str, lang: str) -> Path | None:
    """The catalogue of the game in ``source`` (its data file), or None when it has none: a
    built-in game's ``card_data/messages/<id>.<lang>.yaml``, a project's
    ``<project>/messages/<lang>.yaml``. Confined to that messages folder."""
    from generator.data.files import project, resolve

    folder_of = source.resolve().parent
    if folder_of == paths.CARD_DATA.resolve():
        folder: Path | None = paths.CARD_DATA / "messages"
        name = f"{resolve.check_name(game_id, 'game id')}.{lang}.yaml"
    else:
        try:
            folder = project.Project(folder_of).own("messages")
        except project.ProjectError as exc:
            raise DataError(folder_of / "messages", None, "", str(exc)) from None
        name = f"{lang}.yaml"
    return _confined(folder, name) if folder is not None else None


def shared_catalogue_file(lang: str) -> Path | None:
    """The built-in shared face templates' catalogue, when there is one."""
    return _confined(messages_folder(), f"faces.{lang}.yaml")


def _confined(folder: Path, name: str) -> Path | None:
    from generator.data.files.resolve import inside

    if not folder.is_dir():
        context.listing_version(folder)  # none yet: one made later is seen
        return None
    file = (folder / name).resolve()
    if not inside(file, folder):
        raise DataError(folder / name, None, "", f"leads outside {folder} (a symlink?)")
    context.version(file)  # looked for: a catalogue added later is seen
    return file if file.is_file() else None

