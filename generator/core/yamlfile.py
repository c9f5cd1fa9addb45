"""Read YAML while remembering the line of every key, so errors can point at the source line.

Data files, themes, face templates and icons come from strangers, so reading one is bounded
before and while it is parsed (every limit is a DataError naming the file and line, never a
hang, a traceback or an exhausted memory):

- only a regular file is read (not a device such as /dev/zero, a FIFO or a folder), and at
  most ``MAX_FILE_BYTES``;
- the text must be UTF-8 without control characters (a NUL or binary byte is reported with
  its line and column);
- nesting is at most ``MAX_DEPTH`` levels, counted after aliases are expanded;
- at most ``MAX_ALIASES`` aliases (``*name``), adding at most ``MAX_ALIAS_VALUES`` values to
  what the file spells out, and at most ``MAX_NODES`` values in all ("billion laughs"); an
  alias may not refer to the node that contains it;
- plain YAML only: a tag such as ``!!python/object`` is refused (the safe loader);
- a key given twice in one mapping is refused (YAML would silently keep the last one);
- no text (key or value) holds a control character or a bidirectional override, not even
  written as an escape (``"\\0"``, ``"\\u202e"``): such a character would reach a PDF's
  title, its contents page or a card, invisible or reordering what is around it. Each is a
  DataError naming the field (``UNSEEN``).

Speed: the text is parsed by libyaml's C parser where PyYAML has it (generator/data/
yamlfast.py: same checks, same values and lines; any problem and the pure-Python loader below
runs again to word the error exactly as ever), and a parse is remembered for the process by
the file's text, so a file read twice (game discovery, then the game; a face template used by
every game) is parsed once. Each load still gets values of its own to change. A parse that
passed every check is also kept across processes, by its text, in the code cache
(generator/core/code_cache.py), as compiled expressions are: a build reads the same files as
the build before it.
"""
from __future__ import annotations

import hashlib
import marshal
import os
import re
import stat
from collections import OrderedDict
from collections.abc import Callable, Hashable
from contextlib import suppress
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import yaml

from generator.core import cache, code_cache, context, memo, yamlfast, yamlhints
from generator.core.errors import DataError
from generator.core.words import plain, said

Path_ = tuple[Hashable, ...]

MAX_FILE_BYTES = 2 * 1024 * 1024
MAX_DEPTH = 50
MAX_ALIASES = 100
MAX_NODES = 100_000
MAX_ALIAS_VALUES = 5_000  # values aliases may add beyond what the file spells out
# What YAML accepts (its "printable" set) less the characters that mean binary data.
_NOT_PRINTABLE = re.compile("[^\x09\x0A\x0D\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD"
                            "\U00010000-\U0010FFFF]")
# What no text of a file may hold once its escapes are read: the C0 controls but tab and line
# feed (a NUL, a carriage return, an escape), DEL, and the bidirectional embeddings, overrides
# and isolates (U+202A-U+202E, U+2066-U+2069), which reorder the text around them.
UNSEEN = re.compile("[\x00-\x08\x0B-\x1F\x7F\u202A-\u202E\u2066-\u2069]")


class YamlSyntaxError(DataError):
    """A file that is not (plain, bounded) YAML; ``column`` is 1-based where known."""

    def __init__(self, file: Path | str, line: int | None, column: int | None,
                 expected: str) -> None:
        self.column = column
        super().__init__(file, line, "", expected)


@dataclass(frozen=True)
class YamlDoc:
    """Parsed data plus a map from field path (keys and list indices) to 1-based line numbers."""

    file: Path
    data: Any
    lines: dict[Path_, int]

    def line_of(self, path: Path_) -> int | None:
        """The line of ``path`` or of its nearest ancestor that has one."""
        path = tuple(path)
        while path:
            if path in self.lines:
                return self.lines[path]
            path = path[:-1]
        return self.lines.get((), 1)

    def error(self, path: Path_, expected: str) -> DataError:
        return DataError(self.file, self.line_of(path), format_path(path), expected)


def format_path(path: Path_) -> str:
    """``('components', 0, 'size')`` -> ``components[0].size``; each key as a message shows
    a stranger's text (generator/core/words.py: escaped for the terminal, shortened)."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{plain(part)}" if out
                                                          else plain(part))
    return out


def unseen(text: str) -> str | None:
    """Why ``text`` cannot be printed as written (a character of ``UNSEEN``), or None."""
    bad = UNSEEN.search(text)
    if bad is None:
        return None
    char = bad.group()
    what = ("a bidirectional override" if char >= "\u202a" else "a NUL" if char == "\x00"
            else "a control character")
    return (f"{what} (U+{ord(char):04X}) at character {bad.start() + 1} of the text: it would "
            "print invisibly or reorder the text around it; remove it")


def _record_lines(node: yaml.Node, path: Path_, lines: dict[Path_, int],
                  file: Path = Path("")) -> None:
    lines.setdefault(path, node.start_mark.line + 1)
    if isinstance(node, yaml.ScalarNode):
        problem = unseen(node.value) if isinstance(node.value, str) else None
        if problem:
            raise DataError(file, node.start_mark.line + 1, format_path(path), problem)
    elif isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            key = key_node.value if isinstance(key_node, yaml.ScalarNode) else str(key_node)
            lines[path + (key,)] = key_node.start_mark.line + 1
            problem = unseen(key) if isinstance(key, str) else None
            if problem:
                raise DataError(file, key_node.start_mark.line + 1, format_path(path + (key,)),
                                f"the key: {problem}")
            _record_lines(value_node, path + (key,), lines, file)
    elif isinstance(node, yaml.SequenceNode):
        for index, child in enumerate(node.value):
            _record_lines(child, path + (index,), lines, file)


class _Limit(Exception):
    """A limit was passed at ``mark``."""

    def __init__(self, mark: yaml.Mark | None, message: str) -> None:
        super().__init__(message)
        self.mark = mark
        self.message = message


class _BoundedLoader(yaml.SafeLoader):
    """The safe loader, counting aliases and nesting while it composes the node graph."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self.depth = 0
        self.aliases = 0
        self.first_alias: yaml.Mark | None = None

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            self.aliases += 1
            if self.first_alias is None:
                self.first_alias = self.peek_event().start_mark
            if self.aliases > MAX_ALIASES:
                raise _Limit(self.peek_event().start_mark,
                             f"more than {MAX_ALIASES} aliases (*name) in one file")
            return super().compose_node(parent, index)
        self.depth += 1
        try:
            if self.depth > MAX_DEPTH:
                raise _Limit(self.peek_event().start_mark,
                             f"nested deeper than {MAX_DEPTH} levels")
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


    def compose_mapping_node(self, anchor: Any) -> Any:
        node = super().compose_mapping_node(anchor)
        first: dict[tuple[str, str], yaml.Mark] = {}
        for key_node, _ in node.value:
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag.endswith(":merge"):
                continue
            key = (key_node.tag, key_node.value)
            if key in first:
                raise _Limit(key_node.start_mark, f"duplicate key {said(key_node.value)} (first on "
                                                  f"line {first[key].line + 1}): a typo?")
            first[key] = key_node.start_mark
        return node

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        try:
            return super().construct_object(node, deep)
        except (ValueError, TypeError, OverflowError) as exc:
            # A value the constructor cannot build: an int of 5000 digits, a bad date.
            reason = str(exc).split(";")[0] or type(exc).__name__
            raise _Limit(node.start_mark, f"cannot read this value ({reason})") from None
        except (IndexError, KeyError, AttributeError):
            # PyYAML's own slip on a tagged value it cannot read: ``!!int`` with nothing
            # after it, ``!!bool maybe``, ``!!timestamp x`` (a traceback until now).
            tag = str(node.tag).replace("tag:yaml.org,2002:", "!!")
            raise _Limit(node.start_mark, f"cannot read this value (not a valid {tag} "
                                          "value)") from None


def _measure(root: yaml.Node, first_alias: yaml.Mark | None) -> None:
    """Refuse a node graph whose expansion (aliases copied out) is too big, too deep or
    endless. Linear in the graph: each node's size and depth is computed once."""
    done: dict[int, tuple[int, int]] = {}
    busy: set[int] = set()

    def walk(node: yaml.Node) -> tuple[int, int]:
        key = id(node)
        if key in done:
            return done[key]
        if key in busy:
            raise _Limit(node.start_mark, "an alias refers to the node that contains it")
        busy.add(key)
        size, depth = 1, 0
        if isinstance(node, yaml.MappingNode):
            children = [child for pair in node.value for child in pair]
        elif isinstance(node, yaml.SequenceNode):
            children = list(node.value)
        else:
            children = []
        for child in children:
            child_size, child_depth = walk(child)
            size += child_size
            depth = max(depth, child_depth)
            if size > MAX_NODES:
                raise _Limit(node.start_mark, _too_many() if first_alias is None else
                             f"aliases expand this to more than {MAX_NODES:,} values (an "
                             "alias bomb?)")
        depth += 1
        if depth > MAX_DEPTH:
            raise _Limit(node.start_mark, f"aliases nest this deeper than {MAX_DEPTH} levels")
        busy.discard(key)
        done[key] = (size, depth)
        return size, depth

    total, _ = walk(root)
    added = total - len(done)
    if added > MAX_ALIAS_VALUES:
        raise _Limit(first_alias, f"aliases (*name) add {added:,} values to this file; at most "
                                  f"{MAX_ALIAS_VALUES:,} may come from aliases (an alias bomb?)")


def read_text(file: Path) -> str:
    """The text of a regular file of at most MAX_FILE_BYTES of UTF-8 without control
    characters; anything else is a DataError (with line and column for a bad character)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) \
        | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(file, flags)  # non-blocking: opening a FIFO must not wait for a writer
    except OSError as exc:
        raise DataError(file, None, "", f"cannot read file ({exc.strerror})") from None
    except ValueError:  # a NUL in the path
        raise DataError(file, None, "", "cannot read file (bad file name)") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise DataError(file, None, "", "not a regular file (a device, FIFO or folder "
                                            "cannot be read as YAML)")
        if info.st_size > MAX_FILE_BYTES:
            raise DataError(file, None, "", _too_big(info.st_size))
        chunks, total = [], 0
        while total <= MAX_FILE_BYTES:
            chunk = os.read(fd, min(1 << 20, MAX_FILE_BYTES + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except OSError as exc:
        raise DataError(file, None, "", f"cannot read file ({exc.strerror})") from None
    finally:
        os.close(fd)
    raw = b"".join(chunks)
    if len(raw) > MAX_FILE_BYTES:
        raise DataError(file, None, "", _too_big(len(raw)))
    context.read(file, raw)  # what a face (or anything recording) read, by content
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise YamlSyntaxError(file, line, column, f"not UTF-8 text: byte 0x{raw[exc.start]:02x} "
                                                  f"at column {column} (a binary file?)") from None
    bad = _NOT_PRINTABLE.search(text)
    if bad:
        line = text.count("\n", 0, bad.start()) + 1
        column = bad.start() - (text.rfind("\n", 0, bad.start()) + 1) + 1
        char = bad.group()
        what = "a NUL byte" if char == "\x00" else f"control character U+{ord(char):04X}"
        raise YamlSyntaxError(file, line, column, f"{what} at column {column}: a YAML file "
                                                  "holds text only (a binary file?)")
    return text


def _too_many() -> str:
    return (f"more than {MAX_NODES:,} values (keys, items and texts) in one file; split the "
            "data into several files")


def _too_big(size: int) -> str:
    return (f"file is {size / 1048576:.1f} MB; the limit is {MAX_FILE_BYTES // 1048576} MB "
            "for a YAML file")


def load_yaml(file: Path) -> YamlDoc:
    """Load one YAML document, bounded as the module says; every failure is a DataError
    naming the file and, where there is one, the line (``YamlSyntaxError.column`` too)."""
    text = read_text(file)
    known = _MEMO.get(text)
    if known is not None:
        with suppress(KeyError):  # another thread may just have dropped it
            _MEMO.move_to_end(text)
        values, known_lines = known
        return YamlDoc(file, values(), dict(known_lines))
    key = _kept_key(text)
    kept = _kept(key) if key else None
    if kept is not None:
        blob, kept_lines = kept
        _remember(text, (partial(marshal.loads, blob), kept_lines))
        return YamlDoc(file, marshal.loads(blob), dict(kept_lines))
    try:
        parsed = _parse_fast(text)
    except yamlfast.Refused as exc:
        raise YamlSyntaxError(file, exc.mark.line + 1, exc.mark.column + 1,
                              f"invalid YAML: {_too_many()}") from None
    if parsed is None:
        node, data = _parse(file, text)
        aliased = True  # not known: construct with SafeConstructor
    else:
        node, aliased, data = parsed
    lines: dict[Path_, int] = {}
    if node is not None:
        _record_lines(node, (), lines, file)
    _remember(text, (partial(_construct, node, aliased), lines))
    if key and parsed is not None and not aliased:
        _keep(key, data, lines)
    return YamlDoc(file, data, dict(lines))


# A parse kept across processes (generator/core/code_cache.py), by the text and everything
# that decides its values and lines. Why: each build reads the same game file, its face
# templates, theme and messages again; composing them from libyaml's events was 15-20 ms of
# a warm Moving Target build (load_game 41 ms, 23 ms before templates were read at load).
# Only a parse that passed every check is kept (an error is found again, by parsing), only
# one without aliases (values are not shared within it, so marshal's copy is the same tree)
# and only values marshal writes as they are (no dates: a text with one is parsed each
# time). A kept parse is trusted as compiled code is: the folder's and file's owner checks.
KEPT_FORMAT = "pnp-yaml 1"  # bump with what a kept parse holds


def _kept_key(text: str) -> str | None:
    """The kept parse's key: the text, this module's code and what it imports, PyYAML's
    version and the limits as they are now (a test may lower one)."""
    if not code_cache.enabled():
        return None
    try:
        return cache.fingerprint([
            KEPT_FORMAT, yaml.__version__, yamlfast.AVAILABLE, cache.code_digest(__name__),
            [MAX_FILE_BYTES, MAX_DEPTH, MAX_ALIASES, MAX_NODES, MAX_ALIAS_VALUES],
            hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()])
    except cache.Uncacheable:
        return None


def _kept(key: str) -> tuple[bytes, dict[Path_, int]] | None:
    """(the values marshalled, the lines) kept under ``key``, or None."""
    found = code_cache.load(key)
    if found is None or found[0].get("yaml") != KEPT_FORMAT:
        return None
    kept = found[1]
    if type(kept) is not tuple or len(kept) != 2 or type(kept[0]) is not bytes \
            or type(kept[1]) is not dict:
        return None
    return kept


def _keep(key: str, data: Any, lines: dict[Path_, int]) -> None:
    try:
        blob = marshal.dumps(data)
    except ValueError:  # a date, or another value marshal does not write
        return
    code_cache.store(key, {"yaml": KEPT_FORMAT}, (blob, lines))


# Parses of this process, by text: (what makes its values, lines). The node graph (or the
# kept parse's marshalled values) is held rather than the values so that each load gets
# values of its own (callers may change them). Bounded by the total length of the texts kept
# (least recently used go first).
_Parse = tuple[Callable[[], Any], dict[Path_, int]]
_MEMO: OrderedDict[str, _Parse] = OrderedDict()
MEMO_CHARS = 2 * 1024 * 1024


def _remember(text: str, parse: _Parse) -> None:
    if len(text) > MEMO_CHARS:
        return
    _MEMO[text] = parse
    texts = list(_MEMO)  # one step, so another thread's change cannot break the loop
    total = sum(map(len, texts))
    for oldest in texts:
        if total <= MEMO_CHARS:
            break
        _MEMO.pop(oldest, None)
        total -= len(oldest)


def forget_parses() -> None:
    """Drop the remembered parses (tests; a long-lived process that wants the memory)."""
    _MEMO.clear()


memo.register(forget_parses, f"{__name__}._MEMO")


def _construct(node: yaml.Node | None, aliased: bool) -> Any:
    """The values of a node graph that passed every check (fresh objects at each call): a
    tree by yamlfast.build where it can, else (aliases share values) by SafeConstructor."""
    if node is None:
        return None
    if not aliased:
        try:
            return yamlfast.build(node)
        except yamlfast.Unsupported:
            pass
    return yaml.constructor.SafeConstructor().construct_document(node)


def _parse_fast(text: str) -> tuple[yaml.Node | None, bool, Any] | None:
    """(root node, whether it has aliases, values) by libyaml, or None when libyaml is absent
    or anything at all is wrong (the pure-Python loader then says what, in its words)."""
    if not yamlfast.AVAILABLE:
        return None
    try:
        node, aliased = yamlfast.compose(text, MAX_DEPTH, MAX_ALIASES, MAX_NODES)
        if aliased and node is not None:  # aliases come with a root
            _measure(node, None)
        return node, aliased, _construct(node, aliased)
    except yamlfast.Refused:
        raise
    except Exception:  # every other failure is reported, in its words, by the slow path
        return None


def _parse(file: Path, text: str) -> tuple[yaml.Node | None, Any]:
    """The root node and values by PyYAML's pure-Python loader, or its YamlSyntaxError."""
    loader = _BoundedLoader(text)
    try:
        node = loader.get_single_node()
        if node is not None:
            _measure(node, loader.first_alias)
        data = loader.construct_document(node) if node is not None else None
    except _Limit as exc:
        mark = exc.mark
        raise YamlSyntaxError(file, mark.line + 1 if mark else None,
                              mark.column + 1 if mark else None,
                              f"invalid YAML: {exc.message}") from None
    except yaml.MarkedYAMLError as exc:
        # The one place a parser error becomes a DataError: in plain words, at the line of
        # the slip, with a hint for the usual ones (generator/core/yamlhints.py).
        line, column, words = yamlhints.explain(exc, text)
        raise YamlSyntaxError(file, line, column, f"invalid YAML: {words}") from None
    except yaml.YAMLError as exc:  # ReaderError and others without a mark
        raise YamlSyntaxError(file, None, None, f"invalid YAML: {exc}") from None
    except (ValueError, TypeError, OverflowError, RecursionError) as exc:
        raise YamlSyntaxError(file, None, None, f"invalid YAML: {exc}") from None
    finally:
        loader.dispose()
    return node, data

