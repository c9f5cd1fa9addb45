"""The fast lane's durations check: read the JUnit report of a fast-lane run (`make lanes`
runs ``pytest -m "not slow" --junitxml=...``) and fail naming each test, its cases summed,
that took more than the budget without being marked slow. A test's time is its processor
time, setup to teardown, its children's included (the ``cpu_s`` property tests/conftest.py
writes with --junitxml; a busy machine stretches wall time, hardly processor time), or the
report's wall time where a test has none.

A test's lane is marked at the test (``@pytest.mark.slow`` or its module's ``pytestmark``;
tests/conftest.py adds the mark to a test that asks for a whole kit). What is slow is measured
here, by a run, not asserted by a test: seconds depend on the machine, so no test of the suite
asserts them. A test named here is marked slow, or made cheaper (read the shared ``kits``
rather than build a kit; fewer hypothesis cases in the fast lane).

    python tests/lanes.py output/lanes.xml [--budget 0.6]
"""
from __future__ import annotations

import argparse
import re
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

# Seconds a test may take in a fast-lane run, its cases (parameters, hypothesis draws) summed,
# setup and teardown included: about what keeps `make test-fast` near 40 s on two cores.
# (Session fixtures count in whichever test first asks for them.)
BUDGET_S = 0.6


def test_times(report: Path) -> dict[str, float]:
    """Each test function of the report (``tests/test_x.py::test_name``, a class's as
    ``tests/test_x.py::Class::test_name``) and its seconds, its cases summed."""
    totals: dict[str, float] = defaultdict(float)
    for case in ET.parse(report).getroot().iter("testcase"):
        if case.find("skipped") is not None:
            continue
        classname, name = case.get("classname", ""), case.get("name", "")
        parts = classname.split(".")
        # classname is the module's dotted path, then any class: tests.hostile.test_x.Class
        module_end = next((i for i, p in enumerate(parts) if p.startswith("test_")), len(parts) - 1)
        path = "/".join(parts[:module_end + 1]) + ".py"
        function = re.sub(r"\[.*\]$", "", name, flags=re.S)
        cpu = case.find("properties/property[@name='cpu_s']")
        seconds = float(cpu.get("value", 0) if cpu is not None else case.get("time", 0))
        totals["::".join([path, *parts[module_end + 1:], function])] += seconds
    return dict(totals)


def over_budget(times: dict[str, float], budget: float = BUDGET_S) -> list[tuple[str, float]]:
    """The tests over ``budget``, slowest first."""
    return sorted(((t, s) for t, s in times.items() if s > budget), key=lambda ts: -ts[1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("report", type=Path, help="JUnit XML of a `pytest -m 'not slow'` run")
    parser.add_argument("--budget", type=float, default=BUDGET_S, help="seconds (default 0.6)")
    args = parser.parse_args(argv)
    times = test_times(args.report)
    slow = over_budget(times, args.budget)
    total = sum(times.values())
    print(f"fast lane: {len(times)} test functions, {total:.1f} s")
    if not slow:
        print(f"every one within {args.budget} s")
        return 0
    print(f"{len(slow)} unmarked over {args.budget} s: mark each @pytest.mark.slow or make it "
          f"cheaper (read the shared kits, draw fewer cases)")
    for test, seconds in slow:
        print(f"  {seconds:6.2f} s  {test}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
