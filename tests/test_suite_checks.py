"""The suite's own machinery: the fast lane's durations check (tests/lanes.py) and what a
missing program does to a test (tests/needs.py: skipped on a developer's machine, failed
under CI=1, naming what to install)."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests import conftest, lanes, needs

REPORT = """<?xml version="1.0" encoding="utf-8"?>
<testsuites><testsuite name="pytest" tests="6">
<testcase classname="tests.test_a" name="test_quick" time="0.010" />
<testcase classname="tests.test_a" name="test_cases[1]" time="0.400" />
<testcase classname="tests.test_a" name="test_cases[x[0]-y]" time="0.300" />
<testcase classname="tests.hostile.test_b" name="test_deep" time="0.900" />
<testcase classname="tests.test_c.TestGroup" name="test_in_class" time="0.200" />
<testcase classname="tests.test_d" name="test_waits" time="9.0"><properties>
<property name="cpu_s" value="0.150" /></properties></testcase>
<testcase classname="tests.test_c" name="test_skipped" time="5.0"><skipped message="x"/></testcase>
</testsuite></testsuites>
"""


@pytest.fixture
def report(tmp_path) -> Path:
    file = tmp_path / "lanes.xml"
    file.write_text(REPORT, encoding="utf-8")
    return file


def test_a_tests_cases_are_summed_and_named_by_file(report):
    """Parameters and hypothesis draws are one test; processor time where the run wrote it."""
    times = lanes.test_times(report)
    assert times == pytest.approx({
        "tests/test_a.py::test_quick": 0.01, "tests/test_a.py::test_cases": 0.7,
        "tests/hostile/test_b.py::test_deep": 0.9,
        "tests/test_c.py::TestGroup::test_in_class": 0.2,
        "tests/test_d.py::test_waits": 0.15})  # its processor time, not the 9 s it waited


def test_the_check_fails_naming_each_test_over_the_budget_slowest_first(report, capsys):
    assert lanes.main([str(report)]) == 1
    out = capsys.readouterr().out
    assert "2 unmarked over 0.6 s" in out
    named = [line.split()[-1] for line in out.splitlines() if line.startswith("  ")]
    assert named == ["tests/hostile/test_b.py::test_deep", "tests/test_a.py::test_cases"]
    assert lanes.main([str(report), "--budget", "1"]) == 0
    assert "every one within 1.0 s" in capsys.readouterr().out


@pytest.fixture
def nothing_installed(monkeypatch):
    monkeypatch.setitem(needs.TOOLS, "browser", (lambda: False, "chromium (apt-get install it)"))


def test_a_missing_program_skips_here_naming_what_to_install(nothing_installed, monkeypatch):
    monkeypatch.setattr(needs, "IN_CI", False)
    with pytest.raises(pytest.skip.Exception,
                       match=r"^not found: chromium \(apt-get install it\)$"):
        needs.need("browser")


def test_a_missing_program_fails_under_ci(nothing_installed, monkeypatch):
    monkeypatch.setattr(needs, "IN_CI", True)
    with pytest.raises(pytest.fail.Exception,
                       match=r"^not found, and CI=1 needs it: chromium \(apt-get install it\)$"):
        needs.need("browser")


def test_a_needs_mark_is_read_before_the_test_runs(nothing_installed, monkeypatch):
    """conftest.py's setup hook asks for each name of each ``needs`` mark of the test."""
    monkeypatch.setattr(needs, "IN_CI", True)

    class Item:
        def iter_markers(self, name):
            return [pytest.mark.needs("poppler").mark, pytest.mark.needs("browser").mark]

    monkeypatch.setitem(needs.TOOLS, "poppler", (lambda: True, "pdftoppm"))
    with pytest.raises(pytest.fail.Exception, match="chromium"):
        conftest.pytest_runtest_setup(Item())
