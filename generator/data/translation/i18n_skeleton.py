"""``pnp i18n DIR --lang fr``: a project's catalogue written or brought up to date.

A translator works from a list of what to translate. This writes the project's catalogue
(``<project>/messages/<lang>.yaml``, generator/data/translation/i18n_files.py) with:

- ``strings:``: the entries already there that the kit still prints, as they were, in the
  file's order; then every text the kit prints untranslated and the file lacks, in full, with
  an empty translation (``""`` prints the English until it is filled in) and a comment saying
  where it comes from (``# cards.csv: row 4, column name``), in the order verify lists them;
- ``furniture:``: as it was;
- ``obsolete:``: the translations of texts the kit no longer prints (a wording changed),
  moved here instead of deleted, with those already there; one the kit prints again goes
  back to ``strings:``.

A catalogue is written by hand: its comments, its order and its folded blocks are the
translator's. The file is edited as a round-trip document (ruamel.yaml, pure Python): an entry
that moves takes the comment lines above it along, everything else stays as it was written, and
when nothing is to change the file is not written at all (byte for byte what it was). The same
inputs give the same bytes. A file that changes is replaced atomically and copied to
``<lang>.yaml.bak`` first; a file that does not load as a catalogue is left alone and the
problem reported (DataError).
"""
from __future__ import annotations

import io
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML, YAMLError
from ruamel.yaml.comments import CommentedMap
from ruamel.yaml.error import CommentMark
from ruamel.yaml.scalarstring import (
    DoubleQuotedScalarString,
    FoldedScalarString,
    LiteralScalarString,
)
from ruamel.yaml.tokens import CommentToken

from generator.core.atomic import atomic_file, make_folder
from generator.core.errors import DataError

from ..files.project import Project, ProjectError
from ..files.resolve import inside
from .i18n_files import collapse, load_catalogue

# Wide enough that an English text added is one line, as the tool always wrote it.
WIDTH = 4096


@dataclass(frozen=True)
class Updated:
    """What ``update`` did: the texts the file leaves to translate (empty translations),
    translations kept, marked obsolete, and whether the file changed (and where its old text
    was kept)."""

    file: Path
    added: int
    kept: int
    obsolete: int
    changed: bool
    backup: Path | None


def catalogue_file(root: Path, lang: str) -> Path:
    """``<root>/messages/<lang>.yaml``, refused (ProjectError) when ``messages`` or the file
    leads outside the project (a symlink): what this writes stays in the project."""
    folder = Project(root).own("messages") or root / "messages"
    file = folder / f"{lang}.yaml"
    if file.exists() and not inside(file.resolve(), root):
        raise ProjectError(f"{file} leads outside the project {root} (a symlink?); pnp i18n "
                           "writes only inside it")
    return file


def _yaml() -> YAML:
    """A round-trip YAML: comments, key order, quoting and block styles as written."""
    yaml = YAML(typ="rt", pure=True)
    yaml.preserve_quotes = True
    yaml.width = WIDTH
    yaml.indent(mapping=2, sequence=4, offset=2)
    return yaml


@dataclass
class _Entry:
    """One ``English: translation`` of a section, with the comment lines above it (whole
    lines, as written) and the comment on its own line, if any (column, text)."""

    key: Any
    value: Any
    lead: str = ""
    eol: tuple[int, str] | None = None
    block_eol: Any = None  # the comment after a block scalar's ``>`` (ruamel keeps it apart)


def _lines(tokens: Iterable[CommentToken]) -> str:
    """Comment tokens as the whole lines they were written on."""
    return "".join(" " * _column(t) + t.value if t.value.strip() else t.value for t in tokens)


def _column(token: CommentToken) -> int:
    mark = token.start_mark
    return int(getattr(mark, "column", 0) or 0)


def _block(value: Any) -> bool:
    return isinstance(value, (FoldedScalarString, LiteralScalarString))


def _entries(doc: CommentedMap, name: str) -> tuple[list[_Entry], str]:
    """Section ``name`` of ``doc`` as entries, each with its comments; and the comment lines
    after its last entry (they stand before what follows the section)."""
    section = doc.get(name)
    if not isinstance(section, CommentedMap) or not section:
        return [], ""
    head = doc.ca.items.get(name, [None] * 4)
    found: list[_Entry] = []
    lead = _lines(head[3] or []) if len(head) > 3 else ""
    indent = min(section.lc.data[k][1] for k in section) if section.lc.data else 2
    for key, value in section.items():
        items = section.ca.items.get(key) or [None] * 4
        entry = _Entry(key, value, lead + _lines(items[1] or []),
                       block_eol=items[3] if len(items) > 3 else None)
        post = items[2]
        lead = ""
        if post is not None:
            text = post.value
            if text.startswith("\n"):
                lead = text[1:]
            elif _column(post) > indent and not _block(value):
                eol, _, lead = text.partition("\n")
                entry.eol = (_column(post), eol)
            else:
                lead = " " * _column(post) + text
        found.append(entry)
    return found, lead


def _token(text: str, column: int) -> CommentToken:
    return CommentToken(text, start_mark=CommentMark(column))


def _put(doc: CommentedMap, name: str, entries: list[_Entry], tail: str) -> None:
    """Section ``name`` of ``doc`` made of ``entries`` (comments with each) and ``tail``."""
    section = doc.get(name)
    if not isinstance(section, CommentedMap):
        section = CommentedMap()
        doc[name] = section
    for key in list(section):
        del section[key]
    section.ca.items.clear()
    if entries:
        section.fa.set_block_style()
    else:
        section.fa.set_flow_style()  # ``strings: {}``
    first = entries[0].lead if entries else ""
    tokens: list[CommentToken] = []
    for line in first.splitlines(keepends=True):
        if not line.strip() and tokens:
            tokens[-1].value = tokens[-1].value + line
        else:
            stripped = line.lstrip(" ")
            tokens.append(_token(stripped, len(line) - len(stripped)))
    items = doc.ca.items.setdefault(name, [None] * 4)
    items[3] = tokens or None
    section.ca.comment = [None, tokens] if tokens else None
    for number, entry in enumerate(entries):
        section[entry.key] = entry.value
        after = entries[number + 1].lead if number + 1 < len(entries) else tail
        post = None
        if entry.eol is not None:
            post = _token(entry.eol[1] + "\n" + after, entry.eol[0])
        elif after and _block(entry.value):
            stripped = after.lstrip(" ")
            post = _token(stripped, len(after) - len(stripped))
        elif after:
            post = _token("\n" + after, 0)
        if post is not None or entry.block_eol is not None:
            section.ca.items[entry.key] = [None, None, post, entry.block_eol]


def _where(text: str, indent: int = 2) -> str:
    return " " * indent + "# " + " ".join(text.split()) + "\n"


def update(file: Path, lang: str, wanted: Iterable[tuple[str, str]], used: set[str]
           ) -> Updated:
    """Bring ``file`` up to date with the kit's untranslated texts ``wanted`` ((English,
    where), in report order); ``used``: the catalogue texts (collapsed) the kit looked up and
    found, the translations to keep in ``strings:``. Entries move with their comments; the
    rest of the file stays as written, and a file with nothing to change is not written."""
    old_text = file.read_text(encoding="utf-8") if file.is_file() else None
    yaml = _yaml()
    doc = None
    if old_text is not None:
        load_catalogue(file)  # a file that is no catalogue: its DataError, file untouched
        try:
            doc = yaml.load(old_text)
        except YAMLError as exc:  # read by the checks, refused by the round trip: untouched
            mark = getattr(exc, "problem_mark", None)
            raise DataError(file, mark.line + 1 if mark is not None else None, "",
                            f"pnp i18n cannot edit this file in place "
                            f"({getattr(exc, 'problem', None) or type(exc).__name__}); "
                            "fix it or move it aside") from None
    if not isinstance(doc, CommentedMap):
        doc = CommentedMap()
        doc.yaml_set_start_comment(
            f"The {lang} translations of this project's texts (pnp i18n --lang {lang} adds "
            "what is missing).\nFill in each \"\": an empty translation prints the English "
            "(and verify lists it).")
    strings, strings_tail = _entries(doc, "strings")
    obsolete, obsolete_tail = _entries(doc, "obsolete")
    want = {collapse(english): (english, where) for english, where in wanted}
    kept: list[_Entry] = []
    gone: list[_Entry] = []
    for entry in strings:
        key = collapse(str(entry.key))
        if entry.value in (None, ""):
            if key in want:  # still untranslated: it stays where it is
                kept.append(entry)
            continue  # untranslated and no longer printed: nothing to keep
        (kept if key in used or key in want else gone).append(entry)
    revived = [entry for entry in obsolete
               if collapse(str(entry.key)) in want and entry.value not in (None, "")]
    obsolete = [entry for entry in obsolete if entry not in revived]
    kept += revived
    kept_keys = {collapse(str(entry.key)) for entry in kept}
    added = [_Entry(DoubleQuotedScalarString(english), DoubleQuotedScalarString(""),
                    lead=_where(where))
             for key, (english, where) in want.items() if key not in kept_keys]
    new_strings = kept + added
    changed = old_text is None or [e.key for e in new_strings] != [e.key for e in strings] \
        or bool(gone)
    untranslated = sum(1 for entry in new_strings if entry.value in (None, ""))
    translated = len(new_strings) - untranslated
    backup = None
    if changed:
        _put(doc, "strings", new_strings, strings_tail)
        if obsolete or gone:
            fresh = "obsolete" not in doc
            _put(doc, "obsolete", obsolete + gone, obsolete_tail)
            if fresh:
                doc.yaml_set_comment_before_after_key(
                    "obsolete", before="Texts the kit no longer prints (a wording changed): "
                                       "kept for reference.")
        elif "obsolete" in doc:  # every one printed again
            del doc["obsolete"]
        out = io.StringIO()
        yaml.dump(doc, out)
        text = out.getvalue()
        make_folder(file.parent)
        if old_text is not None:
            backup = file.with_name(file.name + ".bak")
            with atomic_file(backup) as handle:
                handle.write(old_text.encode("utf-8"))
        with atomic_file(file) as handle:
            handle.write(text.encode("utf-8"))
    return Updated(file, untranslated, translated, len(gone), changed, backup)
