"""Load a game data file: parse, validate, expand generators, resolve sizes -> a Game model.

A data file comes from a stranger, so everything a rules module or a renderer will trust is
checked here, before ``verify`` runs: the rules module exists, settings have the types the
module reads them as (schema.SETTINGS), included files stay in the data file's folder
(generator/data/files/resolve.py), icon names in tables name icons, copies are bounded
(schema.MAX_ROW_COUNT per item or row, MAX_COMPONENT_PIECES per component, MAX_GAME_PIECES in
the game), and the file's own ``checks`` hold for every row.

What the faces will draw with is resolved here too, into the Game's ``known``: the face
templates its components name, the templates and icons those name by a fixed name
(generator/data/design/templates.py), and the icons its tables and items name, each loaded once.
"""
from __future__ import annotations

import itertools
import math
import pkgutil
from collections.abc import Hashable, Mapping
from functools import partial
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from generator.core import context, memo, paths
from generator.core.errors import DataError, DataErrors
from generator.core.model import (
    Component,
    FaceTemplate,
    Game,
    Item,
    ItemRef,
    Known,
    Size,
    StartCell,
)
from generator.core.sizes import CARD_SIZES, PAGE
from generator.core.vector import IconDef
from generator.core.words import plain, said
from generator.core.yamlfile import YamlDoc, format_path, load_yaml
from generator.data.design.icons import load_icon
from generator.data.files import project, resolve

from ..design.templates import family, known_faces
from . import fields
from .columns import Refs, cell_text, check_tables, lang_column_problem, parse_type, problems
from .schema import (
    MAX_COMPONENT_PIECES,
    MAX_GAME_PIECES,
    MAX_ROW_COUNT,
    PROJECT_RULES,
    WH,
    ComponentSpec,
    GameSpec,
    GridSpec,
    Round,
    check_settings,
)
from .spreadsheet import read_tables

Tables = dict[str, list[dict[str, Any]]]
RULES_FOLDER = Path(__file__).resolve().parents[2] / "rules"


def game_ids(card_data: Path = paths.CARD_DATA) -> list[str]:
    """Every game present: a YAML file in card_data/ with a top-level ``components`` list."""
    ids = []
    for file in sorted(card_data.glob("*.yaml")):
        doc = load_yaml(file)
        if isinstance(doc.data, dict) and "components" in doc.data:
            ids.append(file.stem)
    return ids


def game_file(game: str, card_data: Path = paths.CARD_DATA) -> Path:
    """A game id (``moving-target``), a path to a data file, or a project folder (its
    ``game.yaml``, or the one game file in it: generator/data/files/project.py)."""
    candidate = Path(game)
    if candidate.suffix in (".yaml", ".yml"):
        return candidate
    if project.is_project_dir(game):
        try:
            return project.data_file(candidate)
        except project.ProjectError as exc:
            raise DataError(candidate, None, "game", str(exc)) from None
    file = card_data / f"{game}.yaml"
    if not file.exists():
        known = ", ".join(game_ids(card_data)) or "none"
        raise DataError(file, None, "game", f"no such game {said(game)} (known games: {known})")
    return file


def validation_errors(doc: YamlDoc, exc: ValidationError,
                      prefix: tuple[Hashable, ...] = ()) -> DataErrors:
    """Turn pydantic's errors into DataErrors that point at lines of the YAML file."""
    errors = []
    for err in _best_alternatives(doc.data, prefix, exc.errors()):
        loc = prefix + _fields(doc.data, prefix, err["loc"])
        msg = err["msg"].removeprefix("Value error, ")
        if err["type"] == "missing":
            msg = "required field is missing"
        elif err["type"] == "extra_forbidden":
            msg = "unknown field (check its spelling)"
        got = err.get("input")
        if err["type"] not in ("missing", "extra_forbidden") and not isinstance(got, (dict, list)):
            msg += f" (got {said(got)})"
        errors.append(doc.error(loc, msg))
    # One error per field: a union reports each alternative, the first is the useful one.
    unique: dict[tuple[int | None, str], DataError] = {}
    for error in errors:
        unique.setdefault((error.line, error.field), error)
    return DataErrors(list(unique.values()))


def load_shaped(file: Path, shape: type[BaseModel]) -> YamlDoc:
    """A file a rules engine reads for itself (not a game file, so not loaded here), checked
    against the shape it declares (a ``schema.Strict`` model) before the engine reads a value
    of it: a hostile edit is one line naming the file, line and field, never a traceback."""
    doc = load_yaml(file)
    try:
        shape.model_validate(doc.data)
    except ValidationError as exc:
        raise validation_errors(doc, exc) from None
    return doc


SHAPE_ERRORS = ("missing", "extra_forbidden")  # a mapping with the keys of another alternative


def _best_alternatives(data: Any, prefix: tuple[Hashable, ...], errs: list[Any]) -> list[Any]:
    """Of the errors of a union (``size: {diameter: 1e308}`` fails as text, as ``{w, h}``, as
    ``{diameter}`` and as ``{grid}``), only those of the alternative the value was meant to be:
    the one it fails least by its shape (a wrong type first, then keys missing or unknown),
    then by the fewest errors. One mistake is one line, not one per alternative."""
    groups: dict[tuple[Hashable, ...], dict[Hashable, list[int]]] = {}
    for index, err in enumerate(errs):
        split = _union_point(data, prefix, err["loc"])
        if split is not None:
            groups.setdefault(split[0], {}).setdefault(split[1], []).append(index)
    dropped: set[int] = set()
    for before, alternatives in groups.items():
        scores = {tag: _badness([errs[i] for i in found], len(before))
                  for tag, found in alternatives.items()}
        best = min(scores, key=scores.__getitem__)  # the first of equals: the union's order
        dropped.update(i for tag, found in alternatives.items() if tag != best for i in found)
    return [err for index, err in enumerate(errs) if index not in dropped]


def _badness(own: list[Any], depth: int) -> tuple[int, int, int]:
    """How far a value is from one union alternative, by that alternative's errors (its tag
    at ``depth`` of their locations): the wrong type whole, then keys missing or unknown,
    then how many errors."""
    typed = sum(1 for e in own if len(e["loc"]) <= depth + 1
                and str(e["type"]).endswith("_type"))
    shape = sum(1 for e in own if e["type"] in SHAPE_ERRORS)
    return typed, shape, len(own)


def _union_point(data: Any, prefix: tuple[Hashable, ...], loc: tuple[Hashable, ...]
                 ) -> tuple[tuple[Hashable, ...], Hashable] | None:
    """Where ``loc`` first enters a union alternative: the path before its tag, and the tag
    (None outside any union); as ``_fields`` tells a tag from a field."""
    node: Any = data
    for part in prefix:
        node = _child(node, part)
    for index, part in enumerate(loc):
        child = _child(node, part)
        if child is _ABSENT and _is_union_tag(part):
            return tuple(loc[:index]), part
        node = child
    return None


def _fields(data: Any, prefix: tuple[Hashable, ...], loc: tuple[Hashable, ...]
            ) -> tuple[Hashable, ...]:
    """``loc`` without pydantic's union tags: a part that is a key (or index) of the value
    reached so far is a field even when it looks like a tag (a board named ``Saltire``, a
    side ``N``); past a part the data does not hold, the tags are guessed by their look."""
    node: Any = data
    for part in prefix:
        node = _child(node, part)
    out: list[Hashable] = []
    for part in loc:
        child = _child(node, part)
        if child is not _ABSENT:
            out.append(part)
            node = child
        elif not _is_union_tag(part):
            out.append(part)
            node = _ABSENT
    return tuple(out)


_ABSENT = object()


def _child(node: Any, part: Hashable) -> Any:
    if isinstance(node, dict) and part in node:
        return node[part]
    if isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
        return node[part]
    return _ABSENT


def _is_union_tag(part: Hashable) -> bool:
    """pydantic names union branches in ``loc`` (``'str'``, ``'WH'``); they are not fields."""
    return isinstance(part, str) and (part in ("str", "int", "float") or part[:1].isupper()
                                      or part.startswith(("function-", "list[", "dict[")))


@memo.memo
def rules_modules() -> tuple[str, ...]:
    """The rules engines a data file may name: the packages of generator/rules/ (each is an
    engine; the plain modules beside them are what engines share). Listed, not imported: data
    sits below rules, and ``rules.load`` checks the engine's interface when it is used."""
    return tuple(sorted(m.name for m in pkgutil.iter_modules([str(RULES_FOLDER)]) if m.ispkg))


def load_game(game: str, card_data: Path = paths.CARD_DATA) -> Game:
    """Load, validate and expand one game. Raises DataError naming file, line and field."""
    file = game_file(game, card_data)
    project.use_for(file)  # its folder's faces/, themes/, icons/, art/ are searched first
    doc = load_yaml(file)
    if not isinstance(doc.data, dict):
        raise doc.error((), "expected a mapping of fields (id, title, components, ...)")
    try:
        spec = GameSpec.model_validate(doc.data)
    except ValidationError as exc:
        raise validation_errors(doc, exc) from None
    _check_references(doc, spec)
    tables, table_docs, declaring = _included_tables(doc, spec, file.parent)
    column_errors = check_tables(doc, doc.data.get("tables") or {}, doc.data.get("columns"))
    if column_errors:
        raise DataErrors(column_errors)
    # Rows as written, or read from the spreadsheet a table names (generator/data/
    # spreadsheet.py), typed by `columns`.
    own, own_docs = read_tables(doc, spec.tables, doc.data.get("columns"), file.parent)
    tables.update(own)
    table_docs.update(own_docs)
    _check_table_refs([*declaring, doc], tables, table_docs)
    _join_tables([*declaring, doc], tables)
    _check_rows(tables, table_docs)
    with context.budgeted():  # the build's budget; a game loaded on its own: its own
        _run_checks(doc, spec, tables, table_docs)
    components = []
    seen: set[str] = set()
    pieces = 0
    for index, comp in enumerate(spec.components):
        path = ("components", index)
        if comp.id in seen:
            raise doc.error(path + ("id",), f"duplicate component id {said(comp.id)}")
        seen.add(comp.id)
        component = _component(doc, path, comp, spec, tables, table_docs)
        pieces += component.total
        if pieces > MAX_GAME_PIECES:
            raise doc.error(path, f"the game would print more than {MAX_GAME_PIECES} pieces "
                                  f"(up to here: {pieces})")
        components.append(component)
    resolve.allow_game_folder(file.parent)  # its images may come from its own folder
    known = Known(icons=_known_icons(spec, tables)) + known_faces(
        name for comp in components for name in (comp.face, comp.back) if name)
    return Game(
        id=spec.id,
        title=spec.title,
        credit=spec.credit,
        rules=spec.rules,
        players=spec.players,
        components=tuple(components),
        theme=theme_of(doc, spec.theme),
        data={"settings": spec.settings, "tables": tables,
              "preflight": spec.preflight.model_dump(),
              "rules_coverage": (spec.rules_coverage.model_dump()
                                 if spec.rules_coverage else None),
              # The declarative checks, their names and targets checked against the
              # components and tables here (data/tables/verify_list.py; rules/declarative.py
              # runs them).
              "verify": _composition_checks(doc, spec, components, tables),
              # Deal questions (data/tables/deal_list.py checks them; rules/deal.py answers).
              "deal": _deal_questions(doc, spec, components)},
        source=file,
        docs={"game": doc, "tables": table_docs},
        known=known,
    )


def _known_icons(spec: GameSpec, tables: Tables) -> dict[str, context.Sourced[IconDef]]:
    """The icons the tables' rows and the components' items name (checked by now), loaded
    with the files each look-up read: faces drawing ``{{ item.icon }}`` read them here."""
    names = [row["icon"] for rows in tables.values() for row in rows if "icon" in row]
    names += [raw["icon"] for comp in spec.components for raw in comp.items or ()
              if "icon" in raw]
    return {name: context.sourced(partial(load_icon, name))
            for name in dict.fromkeys(names) if isinstance(name, str)}


def _check_references(doc: YamlDoc, spec: GameSpec) -> None:
    """What the data file names by name: its rules module, its settings and its theme."""
    if spec.rules is not None and spec.rules.endswith(PROJECT_RULES):
        try:  # the project's own engine: found and confined now, imported only if trusted
            resolve.rules_file(spec.rules, Path(doc.file).parent)
        except resolve.Refused as exc:
            raise doc.error(("rules",), str(exc)) from None
    elif spec.rules is not None:
        known = rules_modules()
        if spec.rules not in known:
            raise doc.error(("rules",), f"no rules module {said(spec.rules)} (generator/rules/"
                                        f"{spec.rules}/); known: {', '.join(known)}; or "
                                        "your own engine, 'rules: rules.py' "
                                        "(docs/engines.md); or leave 'rules' out and check "
                                        "the set with a 'verify' list "
                                        "(docs/declarative-checks.md)")
    problems = check_settings(spec.rules, spec.settings) if spec.rules else []
    if problems:
        raise DataErrors([doc.error(path, problem) for path, problem in problems])
    theme_of(doc, spec.theme)


def theme_of(doc: YamlDoc, theme: str) -> str:
    """The data file's ``theme``: a theme name (the project's themes/, then the built-ins),
    or a .yaml file written relative to the data file and inside its folder, returned as an
    absolute path so it is found whatever the current folder."""
    try:
        if Path(theme).suffix in (".yaml", ".yml"):
            folder = doc.file.resolve().parent
            return str(resolve.confined(theme, [folder], [folder], "theme file",
                                        (".yaml", ".yml")))
        resolve.theme_file(theme)
    except resolve.Refused as exc:
        raise doc.error(("theme",), str(exc)) from None
    return theme


def _composition_checks(doc: YamlDoc, spec: GameSpec, components: list[Component],
                        tables: Tables) -> list[dict[str, Any]]:
    """The ``verify`` list, each check's components, tables and expressions checked (a
    DataError at the check's line), as plain data the Game carries."""
    from .verify_list import check_specs

    return check_specs(doc, spec.verify, components, tables)


def _deal_questions(doc: YamlDoc, spec: GameSpec, components: list[Component]
                    ) -> list[dict[str, Any]]:
    """The ``deal`` list, each question's deck, hands and expressions checked (a DataError
    at the question's line), as plain data the Game carries."""
    from .deal_list import check_questions

    return check_questions(doc, spec.deal, components)


def _included_tables(doc: YamlDoc, spec: GameSpec, folder: Path
                     ) -> tuple[Tables, dict[str, YamlDoc], list[YamlDoc]]:
    """Shared decks (e.g. the Decktet) live in their own file and contribute tables; each
    table is returned with the file it came from, so errors point into that file (and the
    included files, whose ``columns`` may name tables of the others)."""
    tables: Tables = {}
    docs: dict[str, YamlDoc] = {}
    included: list[YamlDoc] = []
    for index, name in enumerate(spec.include):
        try:
            inc = load_yaml(resolve.include_file(name, folder))
        except resolve.Refused as exc:
            raise doc.error(("include", index), str(exc)) from None
        data = inc.data.get("tables") if isinstance(inc.data, dict) else None
        if not isinstance(data, dict) or not all((isinstance(rows, list) and all(
                isinstance(row, dict) for row in rows)) or isinstance(rows, dict)
                for rows in data.values()):
            raise inc.error(("tables",), "expected a 'tables' mapping of name: list of rows "
                                         "(or {file: table.csv}) in an included file")
        column_errors = check_tables(inc, data, inc.data.get("columns"))
        if column_errors:
            raise DataErrors(column_errors)
        own, own_docs = read_tables(inc, data, inc.data.get("columns"), folder)
        tables.update(own)
        docs.update(own_docs)
        included.append(inc)
    return tables, docs, included


def _check_table_refs(declaring: list[YamlDoc], tables: Tables,
                      docs: Mapping[str, YamlDoc]) -> None:
    """The columns typed ``<column> of <table>`` (``suits: list of id of decktet_suits``),
    once every table of the game is read (spreadsheets included): each value must be in the
    table it names, reported at its own row. The other types were checked as each table was
    read (columns.check_tables, spreadsheet cells)."""
    refs = Refs(tables)
    errors: list[DataError] = []
    for decl in declaring:
        columns = decl.data.get("columns") if isinstance(decl.data, dict) else None
        for table, spec in (columns.items() if isinstance(columns, Mapping) else ()):
            if not isinstance(spec, Mapping) or not isinstance(tables.get(table), list):
                continue
            kinds = {column: kind for column, text in spec.items()
                     if (kind := parse_type(text)).refers()}
            for index, row in enumerate(tables[table] if kinds else ()):
                for column, kind in kinds.items():
                    value = row.get(column) if isinstance(row, Mapping) else None
                    if value is not None:
                        errors += [docs[table].error(path, problem) for path, problem
                                   in problems(kind, value, ("tables", table, index, column),
                                               refs)]
    if errors:
        raise DataErrors(errors[:fields.MAX_ERRORS])


def _join_tables(declaring: list[YamlDoc], tables: Tables) -> None:
    """Each column declared a join (``suit: {table: suits}``) gets, in place of its value,
    a copy of the row it names (the references were checked: every value names a row). One
    level: a table joined to may not join others itself, so rows never contain each other,
    and a value that matches two rows of the table is an error, not a guess."""
    joins = []
    for decl in declaring:
        columns = decl.data.get("columns") if isinstance(decl.data, dict) else None
        for table, spec in (columns.items() if isinstance(columns, Mapping) else ()):
            if not isinstance(spec, Mapping) or not isinstance(tables.get(table), list):
                continue
            for column, text in spec.items():
                if isinstance(text, Mapping):
                    joins.append((decl, table, str(column), parse_type(text)))
    joined = {table for _, table, _, _ in joins}
    errors: list[DataError] = []
    found: list[tuple[str, str, dict[str, Any]]] = []
    for decl, table, column, kind in joins:
        by, target = kind.ref
        where = ("columns", table, column)
        if target in joined:
            errors.append(decl.error(where, f"joins table {said(target)}, which joins tables "
                                            f"itself; a join is one level (name its rows "
                                            f"instead: '{by} of {target}')"))
            continue
        rows: dict[str, Any] = {}
        for row in tables[target]:
            key = cell_text(row.get(by)) if isinstance(row, Mapping) else None
            if key is not None and key in rows:
                errors.append(decl.error(where, f"joins table {said(target)} by {said(by)}, "
                                                f"but two of its rows have {plain(by)} "
                                                f"{said(key)}"))
                break
            if key is not None:
                rows[key] = row
        else:
            found.append((table, column, rows))
    if errors:
        raise DataErrors(errors[:fields.MAX_ERRORS])
    for table, column, rows in found:
        for row in tables[table]:
            value = row.get(column) if isinstance(row, Mapping) else None
            if value is not None and not isinstance(value, Mapping):
                row[column] = dict(rows[cell_text(value)])


def _check_rows(tables: Tables, docs: Mapping[str, YamlDoc]) -> None:
    """Row counts (a rules module loops over them) and icon names, in every table."""
    errors: list[DataError] = []
    for table, rows in tables.items():
        doc, total = docs[table], 0
        for index, row in enumerate(rows):
            where = ("tables", table, index)
            copies = row.get("count", 1)
            if not isinstance(copies, int) or isinstance(copies, bool) \
                    or not 0 <= copies <= MAX_ROW_COUNT:
                errors.append(doc.error(where + ("count",), f"expected a whole number of copies "
                                        f"from 0 to {MAX_ROW_COUNT}, got {said(copies)}"))
            else:
                total += copies
            for column in row:  # power@fr: a kit language's (declared tables: checked)
                if isinstance(column, str) and "@" in column:
                    problem = lang_column_problem(column)
                    if problem:
                        errors.append(doc.error(where + (column,), problem))
            if "icon" in row:
                problem = _icon_problem(row["icon"])
                if problem:
                    errors.append(doc.error(where + ("icon",), problem))
        if total > MAX_GAME_PIECES:
            errors.append(doc.error(("tables", table), f"the rows' counts add up to {total}; "
                                                       f"at most {MAX_GAME_PIECES}"))
    if errors:
        raise DataErrors(errors)


def _icon_problem(name: Any) -> str | None:
    """Why ``name`` is not an icon of templates/icons/ (None if it is one). The icon file is
    loaded too, so a broken icon fails here, naming its own file."""
    try:
        resolve.icon_file(name)
    except resolve.Refused as exc:
        return str(exc)
    load_icon(name)
    return None


def _run_checks(doc: YamlDoc, spec: GameSpec, tables: Tables,
                docs: Mapping[str, YamlDoc]) -> None:
    """The file's own ``checks``: each row of the named table must satisfy ``expect``. Their
    work is the build's (each field of a check spends it as its own line's)."""
    from generator.expressions import ExpressionError, Spending, evaluate

    errors: list[DataError] = []
    for index, check in enumerate(spec.checks):
        path = ("checks", index)
        if check.table not in tables:
            raise doc.error(path + ("table",), f"unknown table {said(check.table)}; tables: "
                                               f"{', '.join(tables) or 'none'}")
        who = {name: (str(doc.file), doc.line_of(path + (name,)) or doc.line_of(path),
                      format_path(path + (name,)), "row")
               for name in ("when", "expect", "message")}
        for row_index, row in enumerate(tables[check.table]):
            scope = {"row": row}
            field = "when"
            try:
                with Spending(who["when"]):
                    if not evaluate(check.when, scope):
                        continue
                field = "expect"
                with Spending(who["expect"]):
                    if evaluate(check.expect, scope):
                        continue
                field = "message"
                with Spending(who["message"]):
                    message = str(evaluate(check.message, scope))
            except ExpressionError as exc:
                raise doc.error(path + (field,), f"{exc} (for row {row_index + 1} of "
                                                 f"{check.table})") from None
            where: tuple[str | int, ...] = ("tables", check.table, row_index)
            if check.field:
                where += (check.field,)
            errors.append(docs[check.table].error(where, message))
    if errors:
        raise DataErrors(errors)


def resolve_size(doc: YamlDoc, path: tuple[Hashable, ...], size: Any) -> Size:
    """A preset name, ``page``, ``{w, h}``, ``{diameter}`` or a grid of cells -> a trim Size."""
    if isinstance(size, str):
        if size == "page":
            return PAGE
        if size not in CARD_SIZES:
            known = ", ".join(CARD_SIZES)
            raise doc.error(path, f"unknown size preset {said(size)}; expected one of: "
                                  f"{known}, page")
        return CARD_SIZES[size]
    if isinstance(size, WH):
        return Size(size.w, size.h)
    if isinstance(size, Round):
        return Size(size.diameter, size.diameter)
    if isinstance(size, GridSpec):
        grid = size.grid
        cell = resolve_size(doc, path + ("grid", "cell"), grid.cell)
        w = grid.cols * cell.w + (grid.cols - 1) * grid.gap + 2 * grid.border
        h = grid.rows * cell.h + (grid.rows - 1) * grid.gap + 2 * grid.border
        return Size(round(w, 3), round(h, 3))
    raise doc.error(path, "expected a size")


def _component(doc: YamlDoc, path: tuple[Hashable, ...], comp: ComponentSpec, spec: GameSpec,
               tables: Mapping[str, list[dict[str, Any]]], table_docs: Mapping[str, YamlDoc]
               ) -> Component:
    size = resolve_size(doc, path + ("size",), comp.size)
    _check_template(doc, path + ("face",), comp.face)
    if comp.back:
        _check_template(doc, path + ("back",), comp.back)
    if comp.items is not None:
        for index, raw in enumerate(comp.items):
            problem = _icon_problem(raw["icon"]) if "icon" in raw else None
            if problem:
                raise doc.error(path + ("items", index, "icon"), problem)
        items = tuple(Item({k: v for k, v in raw.items() if k != "count"}, raw.get("count", 1))
                      for raw in comp.items)
        sources = [fields.ItemSource(fields.Source(doc, path + ("items", index)))
                   for index in range(len(items))]
    elif comp.generate is not None:
        items, sources = _generate(doc, path + ("generate",), comp, tables, table_docs)
    else:
        items, sources = (Item({}),), [fields.ItemSource(fields.Source(doc, path))]
    total = sum(item.count for item in items)
    if total > MAX_COMPONENT_PIECES:
        raise doc.error(path, f"{comp.id} would print {total} pieces; a component has at most "
                              f"{MAX_COMPONENT_PIECES}")
    given = fields.Component(
        [item.data for item in items], sources,
        params=(comp.params, fields.Source(doc, path + ("params",))),
        settings=(spec.settings, fields.Source(doc, ("settings",))),
        rules=(spec.rules, fields.Source(doc, ("rules",))),
        size=None if size == PAGE else ({"w": size.w, "h": size.h},
                                        fields.Source(doc, path + ("size",))),
        tables=tables, table_docs=table_docs, face=fields.Source(doc, path + ("face",)))
    errors = fields.check_component(
        [t for name in (comp.face, comp.back) if name for t in family(name)], given,
        _named_face)
    if errors:
        raise DataErrors(errors)
    refs = tuple(ItemRef(source.whole.path, tuple((key, where.path)
                                                  for key, where in source.keys.items()))
                 for source in sources)
    return Component(id=comp.id, kind=comp.kind, name=comp.name, size=size, face=comp.face,
                     sources=refs,
                     items=items, back=comp.back, shape=comp.shape, corner=comp.corner,
                     params=comp.params,
                     label=comp.label, assembly=comp.assembly,
                     seams=(tuple(comp.seams.x), tuple(comp.seams.y)) if comp.seams else ((), ()),
                     seam_gap=comp.seams.gap if comp.seams else 0.0,
                     start=StartCell(**comp.seams.start.model_dump())
                     if comp.seams and comp.seams.start else None,
                     grid=_grid(doc, path + ("size",), comp.size))


def _grid(doc: YamlDoc, path: tuple[Hashable, ...], size: Any) -> dict[str, Any] | None:
    """A grid board's layout as its faces read it (``component.grid``), or None."""
    if not isinstance(size, GridSpec):
        return None
    grid = size.grid
    cell = resolve_size(doc, path + ("grid", "cell"), grid.cell)
    return {"rows": grid.rows, "cols": grid.cols, "gap": grid.gap, "border": grid.border,
            "cell": {"w": cell.w, "h": cell.h}}


def _named_face(name: str) -> list[FaceTemplate] | str:
    """A face template the data names in a ``face`` field (a rules section's diagram) and
    those it includes, or why there is none (generator/data/tables/fields.py)."""
    try:
        resolve.face_file(name)
    except resolve.Refused as exc:
        return str(exc)
    return family(name)


def _check_template(doc: YamlDoc, path: tuple[Hashable, ...], name: str) -> None:
    try:
        resolve.face_file(name)
    except resolve.Refused as exc:
        raise doc.error(path, str(exc)) from None


def _table(doc: YamlDoc, path: tuple[Hashable, ...], tables: Mapping[str, Any], name: str,
           table_docs: Mapping[str, YamlDoc], component: str) -> list:
    """The rows of a table a component is generated from; an empty table is blamed on the
    file that holds it (a spreadsheet with a header only, ``cards: []``), not on the
    component's ``where``."""
    if name not in tables:
        raise doc.error(path, f"unknown table {said(name)}; tables: {', '.join(tables) or 'none'}")
    if not tables[name]:
        raise table_docs.get(name, doc).error(("tables", name), (
            f"the table {name} is empty (no rows); component {component} is generated from "
            "its rows"))
    return tables[name]


def _generate(doc: YamlDoc, path: tuple[Hashable, ...], comp: ComponentSpec,
              tables: Mapping[str, Any], table_docs: Mapping[str, YamlDoc]
              ) -> tuple[tuple[Item, ...], list[fields.ItemSource]]:
    """The items a ``generate`` makes, each with where its values were written (the rows of
    a product's tables, the table row, the ``extra``), for the checks of fields.py."""
    gen = comp.generate
    assert gen is not None
    rows: list[dict[str, Any]]
    sources: list[fields.ItemSource]
    extra = {key: fields.Source(doc, path + ("extra", key)) for key in gen.extra}
    if gen.product is not None:
        names = list(gen.product)
        columns = [_table(doc, path + ("product", n), tables, gen.product[n], table_docs,
                          comp.id) for n in names]
        combos = math.prod(len(column) for column in columns)
        if combos * gen.count > MAX_COMPONENT_PIECES:
            raise doc.error(path + ("product",), f"this product makes {combos * gen.count} "
                                                 f"pieces; a component has at most "
                                                 f"{MAX_COMPONENT_PIECES}")
        picks = list(itertools.product(*(range(len(column)) for column in columns)))
        rows = [{n: column[i] for n, column, i in zip(names, columns, pick, strict=True)}
                for pick in picks]
        sources = [fields.ItemSource(fields.Source(doc, path + ("product",)), {
            **{n: fields.Source(table_docs.get(gen.product[n], doc),
                                ("tables", gen.product[n], i))
               for n, i in zip(names, pick, strict=True)}, **extra}) for pick in picks]
    else:
        table = gen.table or ""
        indexed = list(enumerate(_table(doc, path + ("table",), tables, table, table_docs,
                                                comp.id)))
        for key, wanted in gen.where.items():
            allowed = wanted if isinstance(wanted, list) else [wanted]
            indexed = [(i, row) for i, row in indexed if row.get(key) in allowed]
        if not indexed:
            raise doc.error(path + ("where",), "no rows of the table match this filter")
        rows = [dict(row) for _, row in indexed]
        sources = [fields.ItemSource(fields.Source(table_docs.get(table, doc),
                                                   ("tables", table, i)), extra)
                   for i, _ in indexed]
    items = []
    total = 0
    for row in rows:
        # A table row may say how many copies of it exist (`count: 10`, checked by
        # _check_rows); generate.count multiplies that (e.g. one token set per player).
        copies = row.get("count", 1)
        total += copies * gen.count
        if total > MAX_COMPONENT_PIECES:
            raise doc.error(path, f"{comp.id} would print more than {MAX_COMPONENT_PIECES} "
                                  "pieces (the rows' counts times generate.count)")
        items.append(Item({**row, **gen.extra}, copies * gen.count))
    return tuple(items), sources
