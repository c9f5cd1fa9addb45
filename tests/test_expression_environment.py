"""The expression environment is made by a factory given its functions (issue 37, item 3).

``expressions.make_environment`` offers exactly the functions, filters and tests it is given,
each wrapped like the library's; ``ENV`` is made by it once and nothing registers into it
when a module is imported: the ``t`` function and the ``literal`` filter are there with only
the expressions package loaded, and loading the data and faces layers adds nothing.
"""
from __future__ import annotations

import json
import subprocess
import sys

import pytest
from jinja2.runtime import new_context

from generator.core import paths
from generator.expressions import (
    ENV,
    ExpressionError,
    evaluate,
    make_environment,
    work_budget,
)
from generator.expressions.compiler import parse


def test_a_made_environment_offers_exactly_what_it_is_given():
    env = make_environment({"twice": lambda x: 2 * x}, {"shout": str.upper},
                           {"quiet": str.lower}, {"odd": lambda n: n % 2 == 1})
    assert set(env.globals) == {"twice"}
    assert set(env.filters) == {"shout", "quiet"}
    assert set(env.tests) == {"odd"}
    assert env.is_safe_callable(env.globals["twice"])
    # what one environment may call is its own: the library's functions are not callable here
    assert not env.is_safe_callable(ENV.globals["range"])
    assert not ENV.is_safe_callable(env.globals["twice"])
    context = new_context(env, None, {}, dict(env.globals), shared=True)

    def run(text: str) -> object:
        parsed = parse(text)
        return env.expression_function(parsed.tree, parsed.filters)(context)  # type: ignore[arg-type]

    with work_budget("expression") as meter:
        assert run("{{ twice(3) }}") == 6
        assert run("{{ 'Ab' | shout }}") == "AB"
        assert run("{{ 12 | quiet }}") == "12"  # a text filter: its value made text first
        assert run("{{ 3 is odd }}") is True
    assert meter.work >= 4 * 8  # each call counted (CALL_WORK), as the library's are


def test_the_library_offers_t_and_literal_itself():
    assert evaluate("{{ t('Hand') }}", {}) == "Hand"  # no session open: the value itself
    assert evaluate("{{ '*bold* [red]' | literal }}", {}) == "\\*bold\\* \\[red\\]"
    with pytest.raises(ExpressionError):
        evaluate("{{ 'x' | no_such_filter }}", {})


PROBE = """
import json
from generator.expressions import ENV
before = {"globals": {k: id(v) for k, v in ENV.globals.items()},
          "filters": {k: id(v) for k, v in ENV.filters.items()},
          "tests": {k: id(v) for k, v in ENV.tests.items()}}
import generator.data.translation.i18n, generator.faces.markup  # noqa
import generator.orchestration.build  # noqa
after = {"globals": {k: id(v) for k, v in ENV.globals.items()},
         "filters": {k: id(v) for k, v in ENV.filters.items()},
         "tests": {k: id(v) for k, v in ENV.tests.items()}}
print(json.dumps({"same": before == after, "t": "t" in before["globals"],
                  "literal": "literal" in before["filters"]}))
"""


def test_nothing_registers_into_the_environment_at_import():
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=paths.ROOT, capture_output=True,
                         text=True, check=True).stdout
    assert json.loads(out) == {"same": True, "t": True, "literal": True}
