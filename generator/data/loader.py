"""Load a game data file: parse, validate, expand generators, resolve sizes -> a Game model."""
from __future__ import annotations

import itertools
from collections.abc import Hashable, Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from .. import paths
from ..errors import DataError, DataErrors
from ..layout.sizes import CARD_SIZES, PAGE
from ..model import Component, Game, Item, Size
from .schema import WH, ComponentSpec, GameSpec, GridSpec, Round
from .yamlfile import YamlDoc, load_yaml


def game_ids(card_data: Path = paths.CARD_DATA) -> list[str]:
    """Every game present: a YAML file in card_data/ with a top-level ``components`` list."""
    ids = []
    for file in sorted(card_data.glob("*.yaml")):
        doc = load_yaml(file)
        if isinstance(doc.data, dict) and "components" in doc.data:
            ids.append(file.stem)
    return ids


def game_file(game: str, card_data: Path = paths.CARD_DATA) -> Path:
    """A game id (``moving-target``) or a path to a data file."""
    candidate = Path(game)
    if candidate.suffix in (".yaml", ".yml"):
        return candidate
    file = card_data / f"{game}.yaml"
    if not file.exists():
        known = ", ".join(game_ids(card_data)) or "none"
        raise DataError(file, None, "game", f"no such game {game!r} (known games: {known})")
    return file


def validation_errors(doc: YamlDoc, exc: ValidationError,
                      prefix: tuple[Hashable, ...] = ()) -> DataErrors:
    """Turn pydantic's errors into DataErrors that point at lines of the YAML file."""
    errors = []
    for err in exc.errors():
        loc = prefix + tuple(part for part in err["loc"] if not _is_union_tag(part))
        msg = err["msg"].removeprefix("Value error, ")
        if err["type"] == "missing":
            msg = "required field is missing"
        elif err["type"] == "extra_forbidden":
            msg = "unknown field (check its spelling)"
        got = err.get("input")
        if err["type"] not in ("missing", "extra_forbidden") and not isinstance(got, (dict, list)):
            msg += f" (got {got!r})"
        errors.append(doc.error(loc, msg))
    # One error per field: a union reports each alternative, the first is the useful one.
    unique: dict[tuple[int | None, str], DataError] = {}
    for error in errors:
        unique.setdefault((error.line, error.field), error)
    return DataErrors(list(unique.values()))


def _is_union_tag(part: Hashable) -> bool:
    """pydantic names union branches in ``loc`` (``'str'``, ``'WH'``); they are not fields."""
    return isinstance(part, str) and (part in ("str", "int", "float") or part[:1].isupper()
                                      or part.startswith(("function-", "list[", "dict[")))


def load_game(game: str, card_data: Path = paths.CARD_DATA) -> Game:
    """Load, validate and expand one game. Raises DataError naming file, line and field."""
    file = game_file(game, card_data)
    doc = load_yaml(file)
    if not isinstance(doc.data, dict):
        raise doc.error((), "expected a mapping of fields (id, title, components, ...)")
    try:
        spec = GameSpec.model_validate(doc.data)
    except ValidationError as exc:
        raise validation_errors(doc, exc) from None
    tables = _included_tables(doc, spec, file.parent)
    tables.update(spec.tables)
    components = []
    seen: set[str] = set()
    for index, comp in enumerate(spec.components):
        path = ("components", index)
        if comp.id in seen:
            raise doc.error(path + ("id",), f"duplicate component id {comp.id!r}")
        seen.add(comp.id)
        components.append(_component(doc, path, comp, tables))
    return Game(
        id=spec.id,
        title=spec.title,
        credit=spec.credit,
        rules=spec.rules,
        players=spec.players,
        components=tuple(components),
        theme=spec.theme,
        data={"settings": spec.settings, "tables": tables,
              "preflight": spec.preflight.model_dump()},
        source=file,
    )


def _included_tables(doc: YamlDoc, spec: GameSpec, folder: Path) -> dict[str, list[dict[str, Any]]]:
    """Shared decks (e.g. the Decktet) live in their own file and contribute tables."""
    tables: dict[str, list[dict[str, Any]]] = {}
    for index, name in enumerate(spec.include):
        inc = load_yaml(folder / name) if (folder / name).exists() else None
        if inc is None:
            raise doc.error(("include", index), f"included file {name!r} not found in {folder}")
        data = inc.data.get("tables") if isinstance(inc.data, dict) else None
        if not isinstance(data, dict):
            raise inc.error((), "expected a 'tables' mapping in an included file")
        tables.update(data)
    return tables


def resolve_size(doc: YamlDoc, path: tuple[Hashable, ...], size: Any) -> Size:
    """A preset name, ``page``, ``{w, h}``, ``{diameter}`` or a grid of cells -> a trim Size."""
    if isinstance(size, str):
        if size == "page":
            return PAGE
        if size not in CARD_SIZES:
            known = ", ".join(CARD_SIZES)
            raise doc.error(path, f"unknown size preset {size!r}; expected one of: {known}, page")
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


def _component(doc: YamlDoc, path: tuple[Hashable, ...], comp: ComponentSpec,
               tables: Mapping[str, list[dict[str, Any]]]) -> Component:
    size = resolve_size(doc, path + ("size",), comp.size)
    _check_template(doc, path + ("face",), comp.face)
    if comp.back:
        _check_template(doc, path + ("back",), comp.back)
    if comp.items is not None:
        items = tuple(Item({k: v for k, v in raw.items() if k != "count"}, raw.get("count", 1))
                      for raw in comp.items)
    elif comp.generate is not None:
        items = _generate(doc, path + ("generate",), comp, tables)
    else:
        items = (Item({}),)
    return Component(id=comp.id, kind=comp.kind, name=comp.name, size=size, face=comp.face,
                     items=items, back=comp.back, shape=comp.shape, params=comp.params,
                     label=comp.label, assembly=comp.assembly)


def _check_template(doc: YamlDoc, path: tuple[Hashable, ...], name: str) -> None:
    if not (paths.FACES / f"{name}.yaml").exists():
        known = ", ".join(sorted(p.stem for p in paths.FACES.glob("*.yaml")))
        raise doc.error(path, f"no face template {name!r} in templates/faces/ (have: {known})")


def _table(doc: YamlDoc, path: tuple[Hashable, ...], tables: Mapping[str, Any], name: str) -> list:
    if name not in tables:
        raise doc.error(path, f"unknown table {name!r}; tables: {', '.join(tables) or 'none'}")
    return tables[name]


def _generate(doc: YamlDoc, path: tuple[Hashable, ...], comp: ComponentSpec,
              tables: Mapping[str, Any]) -> tuple[Item, ...]:
    gen = comp.generate
    assert gen is not None
    rows: list[dict[str, Any]]
    if gen.product is not None:
        names = list(gen.product)
        columns = [_table(doc, path + ("product", n), tables, gen.product[n]) for n in names]
        rows = [dict(zip(names, combo, strict=True)) for combo in itertools.product(*columns)]
    else:
        rows = [dict(row) for row in _table(doc, path + ("table",), tables, gen.table or "")]
        for key, wanted in gen.where.items():
            allowed = wanted if isinstance(wanted, list) else [wanted]
            rows = [row for row in rows if row.get(key) in allowed]
        if not rows:
            raise doc.error(path + ("where",), "no rows of the table match this filter")
    items = []
    for index, row in enumerate(rows):
        # A table row may say how many copies of it exist (`count: 10`); generate.count
        # multiplies that (e.g. one token set per player).
        copies = row.get("count", 1)
        if not isinstance(copies, int) or isinstance(copies, bool) or copies < 0:
            raise doc.error(path + ("table",), f"row {index + 1} of the table has count "
                                               f"{copies!r}; expected a whole number >= 0")
        items.append(Item({**row, **gen.extra}, copies * gen.count))
    return tuple(items)
