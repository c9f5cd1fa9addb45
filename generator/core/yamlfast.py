"""The fast path of generator/core/yamlfile.py: libyaml's C parser under the same bounds.

PyYAML's pure-Python scanner was a quarter of a whole build's time. libyaml (``yaml.CParser``,
shipped in the PyYAML wheel) produces the same event stream about ten times faster, so this
module composes the node graph from libyaml's events with exactly the checks of
``yamlfile._BoundedLoader`` (nesting depth, alias count, duplicate anchors and keys, one
document), then measures, constructs and records lines with yamlfile's own code.

It reports one problem itself: more than ``max_nodes`` values spelled out, which the
pure-Python loader would refuse too, but only after composing all of a 2 MB file (7 s);
``Refused`` stops there, at the first value past the limit. On any other failure it raises
``Fallback`` and yamlfile runs the pure-Python loader on the same text, which gives the error
exactly as before (libyaml words its syntax errors differently). So a file is accepted here
only when every check the pure-Python path makes passes on an event stream that libyaml and
PyYAML agree on (the tests compare both parsers on the repository's files and on generated
documents).

Why not ``yaml.compose(text, Loader=CSafeLoader)``: libyaml's own composer recurses in C
without a depth limit (a 2 MB file of ``[`` crashes the process), and it does not count
aliases or refuse duplicate keys; events are pulled one by one here, so nesting stops at
``MAX_DEPTH`` before libyaml reads further.
"""
from __future__ import annotations

import re
from typing import Any

import yaml
from yaml.constructor import SafeConstructor
from yaml.events import (
    AliasEvent,
    CollectionStartEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceStartEvent,
    StreamEndEvent,
)
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.resolver import Resolver

try:  # the wheel ships it; a source build without libyaml does not
    # The stub's cyaml lists CParser in no __all__; at run time cyaml imports it from _yaml.
    from yaml.cyaml import CParser  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on how PyYAML was installed
    CParser = None  # type: ignore[assignment,misc]  # compose() and AVAILABLE check for None

AVAILABLE = CParser is not None and bool(getattr(yaml, "__with_libyaml__", False))

_END = (yaml.events.SequenceEndEvent, yaml.events.MappingEndEvent)
# Characters where libyaml and PyYAML part ways (found by comparing them on generated
# text, tests/test_yaml_fast.py): PyYAML refuses many tabs libyaml takes (``1\t``), and
# keeps a byte-order mark after the start as text. A file with one is parsed by PyYAML.
_DIFFERENT = ("\t", "\ufeff")
# ``key: |#note``: libyaml reads a comment, PyYAML refuses a block scalar header so followed.
_BLOCK_HEADER_COMMENT = re.compile(r"[|>][-+0-9]*#")
_NO_KEY = object()  # a mapping's slot while it waits for its next key


class Fallback(Exception):
    """The fast path did not accept the text: load it the pure-Python way."""


class Refused(Exception):
    """The text spells out more than ``max_nodes`` values (at ``mark``): whatever else it
    holds, yamlfile's ``_measure`` would refuse it, so the pure-Python loader is not run."""

    def __init__(self, mark: yaml.Mark) -> None:
        super().__init__(mark)
        self.mark = mark


def compose(text: str, max_depth: int, max_aliases: int, max_nodes: int
            ) -> tuple[Node | None, bool]:
    """The node graph of ``text`` (None for an empty stream), composed as PyYAML's Composer
    does, with the checks of ``yamlfile._BoundedLoader``, and whether it uses aliases;
    ``Fallback`` (or libyaml's own error) when any check fails. Every value spelled out is
    one node of the graph ``yamlfile._measure`` walks, so the count is kept here: past
    ``max_nodes`` is ``Refused``; without aliases, that count is all _measure would check."""
    if CParser is None or any(char in text for char in _DIFFERENT) \
            or _BLOCK_HEADER_COMMENT.search(text):
        raise Fallback
    parser = CParser(text)
    get = parser.get_event
    resolve = Resolver().resolve
    plain_tags: dict[str, str] = {}  # a plain scalar's tag depends on its text alone
    get()  # StreamStartEvent
    event = get()
    if type(event) is StreamEndEvent:
        return None, False
    count = 0
    # event is the DocumentStartEvent; now the root node.
    anchors: dict[str, Node] = {}
    aliases = 0
    # Open collections: [node, pending key or _NO_KEY, keys seen (mappings only)]
    stack: list[list[Any]] = []
    root: Node | None = None
    while True:
        event = get()
        kind = type(event)
        if isinstance(event, _END):
            entry = stack.pop()
            node = entry[0]
            node.end_mark = event.end_mark
        elif isinstance(event, AliasEvent):
            aliases += 1
            if aliases > max_aliases or event.anchor is None or event.anchor not in anchors:
                raise Fallback
            node = anchors[event.anchor]
        elif not isinstance(event, (ScalarEvent, CollectionStartEvent)):
            raise Fallback  # not an event a node can start with
        else:
            if len(stack) >= max_depth:
                raise Fallback  # this node would be nested deeper than max_depth
            anchor = event.anchor
            if anchor is not None and anchor in anchors:
                raise Fallback
            if event.tag is not None:
                # Tags are where the parsers differ most (libyaml ends ``!!null,`` at the
                # comma in [..], makes ``- !`` a string...); data files have none.
                raise Fallback
            count += 1
            if count > max_nodes:
                # libyaml's events always carry a mark (the stub allows None), with the
                # line and column of yaml.Mark.
                raise Refused(event.start_mark)  # type: ignore[arg-type]
            if isinstance(event, ScalarEvent):
                value = event.value
                if stack and event.style == "" and "?" in value and stack[-1][0].flow_style:
                    raise Fallback  # in [..] or {..}, PyYAML ends a plain scalar at "?"
                implicit = event.implicit
                if implicit[0]:  # plain: the tag depends on the text alone
                    tag = plain_tags.get(value)
                    if tag is None:
                        tag = plain_tags[value] = resolve(ScalarNode, value, implicit)
                else:
                    tag = resolve(ScalarNode, value, implicit)
                # Nodes keep libyaml's Mark (same fields); the stub wants yaml.error.Mark.
                node = ScalarNode(tag, value, event.start_mark,  # type: ignore[arg-type]
                                  event.end_mark, style=event.style or None)  # type: ignore[arg-type]
            elif kind is SequenceStartEvent or kind is MappingStartEvent:
                node_class = SequenceNode if kind is SequenceStartEvent else MappingNode
                node = node_class(resolve(node_class, None, event.implicit), [],
                                  event.start_mark,  # type: ignore[arg-type]  # as above
                                  None, flow_style=event.flow_style)
            else:
                raise Fallback  # not an event a node can start with
            if anchor is not None:
                anchors[anchor] = node
            if kind is not ScalarEvent:
                stack.append([node, _NO_KEY, {} if kind is MappingStartEvent else None])
                continue
        # ``node`` is complete: hand it to its parent.
        if not stack:
            root = node
            break
        parent = stack[-1]
        if type(node) is ScalarNode and node.value == "" and node.style is None \
                and (parent[2] is None or parent[1] is _NO_KEY):
            # An empty key or item (``{? #c`` ... ``: x}``): libyaml may put it on the line
            # of the next token, PyYAML on its own, and the line of a key or item is kept.
            raise Fallback
        if parent[2] is None:
            parent[0].value.append(node)
        elif parent[1] is _NO_KEY:
            parent[1] = node
            if type(node) is ScalarNode and not node.tag.endswith(":merge"):
                if (node.tag, node.value) in parent[2]:
                    raise Fallback  # a duplicate key
                parent[2][(node.tag, node.value)] = True
        else:
            parent[0].value.append((parent[1], node))
            parent[1] = _NO_KEY
    get()  # DocumentEndEvent
    if type(get()) is not StreamEndEvent:
        raise Fallback  # more than one document
    if type(root) is ScalarNode and root.value == "":
        raise Fallback  # ``---`` alone: libyaml puts the empty document a line lower
    return root, aliases > 0


class Unsupported(Exception):
    """``build`` does not handle this graph: use PyYAML's SafeConstructor."""


_TAG = "tag:yaml.org,2002:"
_MAP, _SEQ, _STR = _TAG + "map", _TAG + "seq", _TAG + "str"
_SCALAR_TAGS = frozenset(_TAG + name for name in
                         ("null", "bool", "int", "float", "binary", "timestamp"))


def build(root: Node) -> Any:
    """The values of a node *tree* (no aliases), equal to what ``SafeConstructor`` makes of
    it, in a third of the time: plain maps, sequences and scalars are built here, and every
    scalar that is not a string by SafeConstructor's own function for its tag. Anything else
    (merge keys ``<<``, ``!!set``, ``!!omap``, a key that is not a scalar, an unknown tag)
    raises ``Unsupported``; a value SafeConstructor cannot build raises the same error."""
    constructor = SafeConstructor()
    functions = constructor.yaml_constructors

    def value(node: Node) -> Any:
        tag = node.tag
        kind = type(node)
        if kind is ScalarNode:
            if tag == _STR:
                return node.value
            if tag in _SCALAR_TAGS:
                return functions[tag](constructor, node)
        elif kind is MappingNode and tag == _MAP:
            mapping = {}
            for key_node, value_node in node.value:
                if type(key_node) is not ScalarNode or not (
                        key_node.tag == _STR or key_node.tag in _SCALAR_TAGS):
                    raise Unsupported  # a merge key, a !!value key or a collection as key
                mapping[value(key_node)] = value(value_node)
            return mapping
        elif kind is SequenceNode and tag == _SEQ:
            return [value(child) for child in node.value]
        raise Unsupported

    return value(root)
