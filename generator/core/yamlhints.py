"""A YAML syntax error in plain words, at the line of the slip, with a hint for the usual ones.

PyYAML words its errors for someone who knows its grammar (``expected ',' or '}', but got
'?'``) and marks the token where it gave up, which is not always where the writer slipped: a
``{`` never closed (a `` #`` that made the rest of its line a comment) is noticed at the next
token, lines later past blank and comment lines; a quote never closed at the end of the file; a
line with no ``:`` at the line after it. ``explain`` is called by the one place that turns a
parser error into a DataError (generator/core/yamlfile.py ``_parse``): it takes PyYAML's
exception and the text, and returns the line and column of the slip and what to write there.

The slips designers make (issue 27): an unquoted ``?`` inside ``{ }`` or ``[ ]``
(``type: bool?``), an unquoted ``: `` inside a value (``title: Hello: world``), a `` #`` that
starts a comment mid-value (``{name: Card #3, ...}``), a tab, and a line indented to no column
of the lines above it. Anything else keeps PyYAML's words, at the line it marks.
"""
from __future__ import annotations

import json
import re

import yaml

# Line breaks as PyYAML's reader counts them (generator/core/yamlfile.py: marks are 0-based).
_BREAKS = re.compile("\r\n|[\n\r\x85\u2028\u2029]")
_FLOW_NOT_GOING_ON = re.compile(r"^expected ',' or '([}\]])', but got (.*)$")
_COMMENT = re.compile(r"(^|\s)#")


def _quoted(value: str) -> str:
    """``value`` as a YAML double-quoted text (JSON's quoting is valid YAML)."""
    return json.dumps(value, ensure_ascii=False)


def _flow_value(line: str, column: int) -> str:
    """The plain value around ``column`` of a line of ``{ }`` or ``[ ]``: from after the
    ``,``, ``{``, ``[`` or key's ``: `` before it to the next ``,``, ``}`` or ``]``."""
    start = max(line.rfind(c, 0, column) for c in ",{[") + 1
    end = min((i for i in (line.find(c, column) for c in ",}]") if i >= 0), default=len(line))
    part = line[start:end]
    key = part.find(": ")
    if 0 <= key < column - start:
        part = part[key + 2:]
    return part.strip()


def _block_value(line: str) -> str:
    """The value of a ``key: value`` (or ``- key: value``) line, its comment left out."""
    value = line.split(": ", 1)[1] if ": " in line else line
    comment = _COMMENT.search(value)
    return (value[:comment.start()] if comment else value).strip()


def _content_line(lines: list[str], before: int, floor: int) -> int:
    """The last line (0-based) before ``before`` that is not blank nor a comment alone, and
    not before ``floor``: where a construct left open was last written to."""
    for index in range(min(before, len(lines)) - 1, floor, -1):
        text = lines[index].strip()
        if text and not text.startswith("#"):
            return index
    return floor


def explain(exc: yaml.MarkedYAMLError, text: str) -> tuple[int | None, int | None, str]:
    """(line, column, words) of a syntax error: 1-based, None where PyYAML has no mark."""
    problem = exc.problem or exc.context or "unreadable"
    mark, opened = exc.problem_mark, exc.context_mark
    if mark is None:
        mark = opened
    if mark is None:
        return None, None, problem
    lines = _BREAKS.split(text)
    row, column = mark.line, mark.column
    line = lines[row] if row < len(lines) else ""

    if "could not determine a constructor for the tag" in problem:
        tag = problem.split("tag", 1)[1].strip().replace("tag:yaml.org,2002:", "!!")
        return row + 1, column + 1, f"the tag {tag} is not allowed (plain YAML only)"

    def at(index: int, col: int, words: str) -> tuple[int, int, str]:
        return index + 1, col + 1, words

    if "'\\t'" in problem:
        return at(row, column, f"a tab at column {column + 1}: YAML indents with spaces "
                               "only; replace the tab with spaces")
    flow = _FLOW_NOT_GOING_ON.match(problem)
    if flow and opened is not None:
        close, got = flow.groups()
        bracket = "{ }" if close == "}" else "[ ]"
        # On the line the { opened, or on a line after one that ended in "," (a { } over
        # several lines): a "?" or ":" in a value. Else the { was left open lines above.
        previous = lines[_content_line(lines, row, opened.line)].rstrip()
        if got in ("'?'", "':'") and (row == opened.line or previous.endswith((",", "{", "["))):
            value = _flow_value(line, column)
            char = got.strip("'")
            return at(row, column, f'a "{char}" inside {bracket} ends a plain value '
                                   f"(column {column + 1}): put the value in quotes: "
                                   f"{_quoted(value)}")
        slip = _content_line(lines, row, opened.line)
        slipped = lines[slip] if slip < len(lines) else ""
        comment = _COMMENT.search(slipped, opened.column + 1 if slip == opened.line else 0)
        where = f"the {close.replace('}', '{').replace(']', '[')} opened on line " \
                f"{opened.line + 1}"
        if comment:
            col = comment.end() - 1
            return at(slip, col, f'" #" starts a comment (column {col + 1}), so the rest of '
                                 f"the line is not read and {where} is never closed: put the "
                                 f"value in quotes: {_quoted(_flow_value(slipped, col))}")
        if slip != row:
            return at(slip, len(slipped.rstrip()), f'{where} is not closed on this line: a '
                                                   f'missing "{close}" or ","?')
        return at(row, column, f'{where} goes on here without a ",": a missing "," or "{close}" '
                               f"(or a value that needs quotes)?")
    if problem == "mapping values are not allowed here":
        before = line[:column]
        if ": " in before or before.rstrip().endswith(":"):
            value = _block_value(line)
            return at(row, column, f'a ": " inside a value reads as a second key (column '
                                   f"{column + 1}): put the value in quotes: "
                                   f"{_quoted(value)}")
        return at(row, column, "this key is indented more than the line above it (so YAML "
                               "reads it as part of that line's value): line up the keys of "
                               "one mapping at the same column")
    if problem.startswith("expected <block end>, but found"):
        indent = len(line) - len(line.lstrip(" "))
        if column == indent:
            return at(row, column, f"this line is indented to column {column + 1}, which "
                                   "matches none of the lines above it: line up the keys of "
                                   'one mapping, and the "- " items of one list, at the same '
                                   "column (spaces only)")
        if line[:column].rstrip()[-1:] in ("'", '"'):
            return at(row, column, f"text goes on after a quoted value ended (column "
                                   f"{column + 1}): a quote inside the value? put the whole "
                                   "value in double quotes, or double a ' inside '...' "
                                   "('it''s')")
    if problem == "found unexpected end of stream" and opened is not None \
            and "quoted scalar" in (exc.context or ""):
        return at(opened.line, opened.column, f"the quote at column {opened.column + 1} is "
                                              "never closed: a missing closing quote?")
    if problem == "could not find expected ':'" and opened is not None:
        return at(opened.line, opened.column, 'this line has no ":" where a "key: value" is '
                                              "expected (or a quoted value is not closed)")
    cannot = re.match(r"found character '(.)' that cannot start any token", problem)
    if cannot:
        return at(row, column, f'a value cannot start with "{cannot.group(1)}" (column '
                               f"{column + 1}): put the value in quotes")
    return at(row, column, problem)
