"""YAML read by libyaml (generator/core/yamlfast.py) gives exactly what PyYAML's pure-Python
loader gave: the same values, the same line of every key and item, the same errors; parses
are remembered per text, each load still gets values of its own; game discovery no longer
parses a game twice.

The reference everywhere is ``yamlfile._parse``, the pure-Python path as it always was."""
from __future__ import annotations

import datetime
import math
import os
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.core import paths, yamlfast, yamlfile
from generator.core.errors import DataError
from generator.data import check_games, load_game

ROOT = Path(__file__).resolve().parent.parent
REPO_YAML = sorted(p for folder in ("card_data", "templates", "generator")
                   for p in (ROOT / folder).rglob("*.yaml"))
pytestmark = pytest.mark.needs("libyaml")  # skipped without it; under CI=1 a failure


def same(a: Any, b: Any) -> bool:
    """Equal, with equal types all the way down (``1 == 1.0 == True`` is not enough)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return (len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
                and all(same(a[key], b[key]) for key in a))
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    return bool(a == b)


def reference(text: str) -> tuple[str, Any, Any]:
    """What the pure-Python loader makes of ``text``: ("ok", data, lines) or ("error", ...)."""
    lines: dict = {}
    try:
        node, data = yamlfile._parse(Path("doc.yaml"), text)
        if node is not None:  # a text holding a control character is refused here
            yamlfile._record_lines(node, (), lines, Path("doc.yaml"))
    except DataError as exc:
        return "error", exc.message(), getattr(exc, "column", None)
    return "ok", data, lines


def through_load_yaml(folder: Path, text: str) -> tuple[str, Any, Any]:
    file = folder / "doc.yaml"
    file.write_text(text, encoding="utf-8", newline="")
    try:
        doc = yamlfile.load_yaml(file)
    except DataError as exc:
        return ("error", exc.message().replace(str(folder) + os.sep, "", 1),
                getattr(exc, "column", None))
    return "ok", doc.data, doc.lines


def assert_same_outcome(folder: Path, text: str) -> None:
    expected = reference(text)
    yamlfile.forget_parses()
    got = through_load_yaml(folder, text)
    assert got[0] == expected[0], (text, got, expected)
    if got[0] == "ok":
        assert same(got[1], expected[1]), (text, got[1], expected[1])
        assert got[2] == expected[2], (text, got[2], expected[2])
    else:
        assert got[1:] == expected[1:]
    again = through_load_yaml(folder, text)  # from the memo
    assert again[0] == got[0] and (again[0] != "ok" or (same(again[1], got[1])
                                                        and again[2] == got[2]))


# -- the repository's own files --------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("file", REPO_YAML, ids=lambda p: str(p.relative_to(ROOT)))
def test_repository_file_is_read_by_libyaml_exactly_as_before(file):
    text = yamlfile.read_text(file)
    fast = yamlfile._parse_fast(text)
    assert fast is not None, "a repository file should not need the slow path"
    node, _aliased, data = fast
    lines: dict = {}
    if node is not None:
        yamlfile._record_lines(node, (), lines)
    status, expected_data, expected_lines = reference(text)
    assert status == "ok"
    assert same(data, expected_data)
    assert lines == expected_lines


# -- generated documents -----------------------------------------------------------------------

PIECES = ["a", "b", "key", "1", "-1", "0x1f", "0o17", "1_000", "1:30", "1.5", "1e3", ".inf",
          ".NaN", "~", "null", "yes", "No", "on", "2024-01-02", "2001-12-14t21:59:43.10-05:00",
          "'q'", '"d\\n"', '"\\x41"', "'it''s'", ":", ": ", "- ", "-", "[", "]", "{", "}", ",",
          ", ", "#c", " #c", "&x ", "*x", "&y ", "*y", "!!str ", "!!int ", "!!set ", "!!binary ",
          "!!omap ", "! ", "? ", "<<: ", "=", "|", "|-", ">", ">+", "|2", "\n", "\n  ", "\n    ",
          "\n- ", "\n  - ", " ", "  ", "\t", "---", "...", "%YAML 1.1\n", "é", "\u2028", "\x85",
          "\r\n", "\r", "\ufeff", "'", '"', "@", "`", "%", "?"]


@st.composite
def block_yaml(draw: st.DrawFn, depth: int = 0) -> str:
    """Mostly well-formed block YAML with flow collections, anchors, merges and comments."""
    lines = []
    indent = " " * draw(st.sampled_from([0, 1, 2, 4]))
    for _ in range(draw(st.integers(1, 4))):
        key = draw(st.sampled_from(["a", "b", "'q'", "1", "? x", "<<", "e f", "*x", "&x k"]))
        shape = draw(st.integers(0, 5))
        if shape == 0 and depth < 3:
            inner = draw(block_yaml(depth + 1))
            lines.append(f"{key}:\n" + "\n".join("  " + line for line in inner.splitlines()))
        elif shape == 1:
            items = draw(st.lists(st.sampled_from(PIECES[:24]), min_size=1, max_size=3))
            lines.append(f"{key}:\n" + "\n".join(f"  - {item}" for item in items))
        elif shape == 2:
            lines.append(f"{key}: {draw(st.sampled_from(['|', '>-', '|+']))}\n  one\n   two\n")
        elif shape == 3:
            items = draw(st.lists(st.sampled_from(PIECES[:30]), max_size=3))
            lines.append(f"{key}: [{', '.join(items)}]")
        elif shape == 4:
            lines.append(f"{key}: &x {{x: {draw(st.sampled_from(PIECES[:24]))}, y: [1, {{z: 2}}]}}")
        else:
            lines.append(f"{key}: {draw(st.sampled_from(PIECES))}")
    return "\n".join(indent + line for line in "\n".join(lines).split("\n")) \
        + draw(st.sampled_from(["", "\n"]))


SCALARS = (st.integers(-10**9, 10**9) | st.floats(allow_nan=False) | st.booleans()
           | st.none() | st.text(st.sampled_from(list("ab c:-#'\"\\\n?!&*|>%@`{}[],é\u2028\x85"
                                                      "\r x0.~=")), max_size=12)
           | st.dates())
DATA = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(SCALARS.filter(lambda v: not isinstance(v, float)),
                                      inner, max_size=4), max_leaves=20)


@st.composite
def dumped(draw: st.DrawFn) -> str:
    """Valid YAML as PyYAML's emitter writes it, in every style."""
    return yaml.safe_dump(draw(DATA), default_flow_style=draw(st.sampled_from([None, True, False])),
                          width=draw(st.sampled_from([10, 40, 80])),
                          allow_unicode=draw(st.booleans()), indent=draw(st.sampled_from([2, 4])),
                          default_style=draw(st.sampled_from([None, "'", '"', "|", ">"])),
                          explicit_start=draw(st.booleans()))


def mutated(texts: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """``texts`` with a piece of YAML syntax put somewhere (often making it invalid)."""
    @st.composite
    def mutate(draw: st.DrawFn) -> str:
        text = draw(texts)
        at = draw(st.integers(0, len(text)))
        return text[:at] + draw(st.sampled_from(PIECES)) + text[at:]
    return mutate()


TEXTS = (st.lists(st.sampled_from(PIECES), max_size=25).map("".join) | block_yaml()
         | dumped() | mutated(block_yaml()) | mutated(dumped()))


@pytest.mark.slow
@settings(max_examples=400, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(text=TEXTS)
def test_generated_text_gives_what_the_pure_python_loader_gives(tmp_path, text):
    assert_same_outcome(tmp_path, text)


@pytest.mark.parametrize("text", [
    "1\t", "a: 1\t\n", "a:\n\tb: 1\n",  # PyYAML refuses these tabs, libyaml takes them
    "a: |#c\n  x\n", "a: >-#c\n  x\n",  # a comment right after a block scalar header
    "{x: a? b}", "[a?b, c]", "[? a]",  # "?" in a plain scalar inside [..] or {..}
    "---", "---\n", "# c\n---", "\r---",  # an empty document: libyaml has it a line lower
    "- !\n", "a: ! \n", "! a", "a: ! 1\n",  # the non-specific tag
    '{a: !!null, b: 1}', "[!!str, x]",  # libyaml ends a tag at "," in [..] or {..}
    '[{? #c "x"\n  : [0]}]\n', "- \n- a\n", "? \n: x\n",  # an empty key or item
    "\ufeffa: 1\n", "a: 1\n\ufeff", "? a\n? b", "a: 1\n...\n", "%YAML 1.1\n--- a\n",
    "a: &x 1\nb: *x\n", "a: &x [1]\nb: *x\nc: *x\n", "b: &b {x: 1}\nc:\n  <<: *b\n  x: 2\n",
    "? [a]\n: 1\n", "a: !!set {x, y}\n", "a: !!omap [x: 1]\n", "a: !!binary aGk=\n",
    "a: 2024-02-30\n", "a: !!int\n", "a: !!bool maybe\n", "a: !!timestamp x\n",
    "a: 1\nb: 2\na: 3\n", "title: Moving: Target\n", "a: !!python/name:os.system\n",
    "a: 1\n---\nb: 2\n", "a: *nope\n", "a: &x 1\nb: &x 2\n", "", "# only\n", "[", "a:\n  - b\n c",
])
def test_known_differences_between_the_parsers_are_left_to_pure_python(tmp_path, text):
    assert_same_outcome(tmp_path, text)


def test_without_libyaml_everything_is_read_the_pure_python_way(tmp_path, monkeypatch):
    monkeypatch.setattr(yamlfast, "AVAILABLE", False)
    for text in ("a: 1\nb: [x, {y: 2}]\n", "a: 1\na: 2\n", "x: [\n"):
        assert_same_outcome(tmp_path, text)


# -- bounds ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "line", "message"), [
    ("[" * 300_000 + "]" * 300_000, 1, "nested deeper than 50 levels"),  # libyaml's composer
    ("a: 1\ndeep: " + "[" * 60 + "]" * 60 + "\n", 2, "nested deeper than 50 levels"),  # crashes
    ("few: &f [x]\nmany: [" + ", ".join(["*f"] * 150) + "]\n", 2, "more than 100 aliases"),
    ("loop: &l [*l]\n", 1, "refers to the node that contains it"),
    ("[" + ", ".join(["1"] * 1001) + "]\n", 1, "more than 1,000 values"),  # MAX_NODES 1000
])
def test_bounds_hold_on_the_fast_path(tmp_path, monkeypatch, text, line, message):
    monkeypatch.setattr(yamlfile, "MAX_NODES", 1000)  # else the pure-Python loader takes 5 s
    file = tmp_path / "doc.yaml"
    file.write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as info:
        yamlfile.load_yaml(file)
    assert message in info.value.message()
    assert info.value.message().startswith(f"{file}:{line}: invalid YAML: ")


def test_too_many_values_are_refused_where_the_limit_is_passed_without_a_second_parse(
        tmp_path, monkeypatch):
    """A flat list of 200,000 items made the pure-Python loader compose all 2 MB (7 s) to say
    "an alias bomb?" of a file without aliases; the fast path now stops at the value past
    the limit and says what it is."""
    monkeypatch.setattr(yamlfile, "MAX_NODES", 1000)
    file = tmp_path / "doc.yaml"
    file.write_text("items:\n" + "  - 1\n" * 1500, encoding="utf-8")

    def slow(*args):
        raise AssertionError("the pure-Python loader ran")

    with monkeypatch.context() as m:
        m.setattr(yamlfile, "_parse", slow)
        with pytest.raises(DataError) as info:
            yamlfile.load_yaml(file)
    # values: the mapping, its key, the list, then item k is value 3 + k (on line 1 + k)
    assert info.value.message() == (
        f"{file}:999: invalid YAML: more than 1,000 values (keys, items and texts) in one "
        "file; split the data into several files")
    monkeypatch.setattr(yamlfast, "AVAILABLE", False)
    with pytest.raises(DataError) as info:
        yamlfile.load_yaml(file)
    assert "more than 1,000 values (keys, items and texts)" in info.value.message()
    assert "alias" not in info.value.message()


@pytest.mark.parametrize(("text", "expected"), [
    ("a: 1\nb: !!int\n", "2: invalid YAML: cannot read this value (not a valid !!int value)"),
    ("a: !!bool maybe\n", "1: invalid YAML: cannot read this value (not a valid !!bool value)"),
    ("a: !!timestamp x\n", "1: invalid YAML: cannot read this value (not a valid !!timestamp "
                           "value)"),
])
def test_values_pyyaml_slips_on_are_errors_not_tracebacks(tmp_path, text, expected):
    file = tmp_path / "doc.yaml"
    file.write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as info:
        yamlfile.load_yaml(file)
    assert info.value.message() == f"{file}:{expected}"


# -- the memo -------------------------------------------------------------------------------

def test_each_load_gets_values_of_its_own(tmp_path):
    file = tmp_path / "doc.yaml"
    file.write_text("a: {b: [1, 2]}\nwhen: 2024-01-02\nx: &x [1]\ny: *x\n", encoding="utf-8")
    first = yamlfile.load_yaml(file)
    first.data["a"]["b"].append(3)
    first.data["x"].append(9)
    first.lines.clear()
    second = yamlfile.load_yaml(file)
    assert second.data == {"a": {"b": [1, 2]}, "when": datetime.date(2024, 1, 2),
                           "x": [1], "y": [1]}
    assert second.data["x"] is second.data["y"]  # an alias is still one object
    assert second.lines[("a", "b")] == 1 and second.lines[("y",)] == 4


def test_a_changed_file_is_parsed_again_even_with_the_same_size_and_time(tmp_path):
    file = tmp_path / "doc.yaml"
    file.write_text("a: 1\n", encoding="utf-8")
    stamp = file.stat()
    assert yamlfile.load_yaml(file).data == {"a": 1}
    file.write_text("a: 2\n", encoding="utf-8")
    os.utime(file, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
    assert yamlfile.load_yaml(file).data == {"a": 2}
    file.write_text("a: [\n", encoding="utf-8")
    with pytest.raises(DataError, match="invalid YAML"):
        yamlfile.load_yaml(file)


def test_the_memo_is_bounded(tmp_path, monkeypatch):
    monkeypatch.setattr(yamlfile, "MEMO_CHARS", 1000)
    yamlfile.forget_parses()
    for n in range(30):
        file = tmp_path / f"f{n}.yaml"
        file.write_text(f"n: {n}\ntext: {'x' * 90}\n", encoding="utf-8")
        assert yamlfile.load_yaml(file).data["n"] == n
    assert sum(map(len, yamlfile._MEMO)) <= 1000
    assert len(yamlfile._MEMO) >= 5


def counting_compositions(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text libyaml's events are composed from from now on, in order (the list fills)."""
    composed: list[str] = []
    compose = yamlfast.compose

    def counting(text: str, *args: Any) -> Any:
        composed.append(text)
        return compose(text, *args)

    monkeypatch.setattr(yamlfast, "compose", counting)
    return composed


@pytest.mark.slow
def test_discovery_then_load_parses_each_data_file_once(monkeypatch):
    monkeypatch.setenv("PNP_CODE_CACHE", "0")  # this process's memo alone, not kept parses
    composed = counting_compositions(monkeypatch)
    yamlfile.forget_parses()
    games = check_games([])
    for game in games:
        load_game(game)
    data_files = {yamlfile.read_text(file) for file in paths.CARD_DATA.glob("*.yaml")}
    parsed_data_files = [text for text in composed if text in data_files]
    assert len(parsed_data_files) == len(set(parsed_data_files)) == len(data_files)


def test_a_parse_is_kept_across_processes_by_its_text(tmp_path, monkeypatch, fresh_cache):
    """A second process (here: the memo forgotten) reads a kept parse instead of composing
    the text again: the same values and lines, values of its own; a text with a date, or
    aliases, or one that fails a check, is not kept."""
    composed = counting_compositions(monkeypatch)
    kept, dated = tmp_path / "kept.yaml", tmp_path / "dated.yaml"
    kept.write_text("a: {b: [1, 2.5, true, null]}\nc: text\n", encoding="utf-8")
    dated.write_text("when: 2024-01-02\n", encoding="utf-8")
    first = yamlfile.load_yaml(kept)
    yamlfile.load_yaml(dated)
    yamlfile.forget_parses()
    again = yamlfile.load_yaml(tmp_path / "kept.yaml")
    yamlfile.load_yaml(dated)
    assert composed == [kept.read_text(), dated.read_text(), dated.read_text()]
    assert again.data == first.data == {"a": {"b": [1, 2.5, True, None]}, "c": "text"}
    assert again.lines == first.lines and again.lines[("c",)] == 2
    again.data["a"]["b"].append(3)
    assert yamlfile.load_yaml(kept).data["a"]["b"] == [1, 2.5, True, None]
    monkeypatch.setattr(yamlfile, "MAX_DEPTH", 1)  # a limit is part of the key
    yamlfile.forget_parses()
    with pytest.raises(DataError, match="nested deeper than 1 level"):
        yamlfile.load_yaml(kept)
