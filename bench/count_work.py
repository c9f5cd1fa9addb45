"""Run ``python -m generator ARGS`` and write what it compiled and parsed to a JSON file:
``python bench/count_work.py OUT.json ARGS...``.

Counted in this process and every worker it forks: the expression strings Python compiled
(the ``compile`` audit event of Jinja's and our code generator's output, named
``<expression>`` or ``<template>``) and the font files ReportLab parsed
(``TTFontFile.extractInfo``). Issue 37's cold builds must compile no expression and parse no
font that an earlier process compiled or parsed (generator/core/code_cache.py,
generator/data/typefaces/font_tables.py): bench/item4.py runs a cold build twice and reads the
second's.
"""
from __future__ import annotations

import json
import os
import runpy
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str]) -> int:
    out = Path(argv[0])
    counts = {"compiled": 0, "parsed": 0}

    def hook(event: str, args: tuple[object, ...]) -> None:
        if event == "compile" and len(args) > 1 and args[1] in ("<expression>", "<template>"):
            counts["compiled"] += 1

    sys.addaudithook(hook)
    from reportlab.pdfbase import ttfonts

    real = ttfonts.TTFontFile.extractInfo

    def counted(self: ttfonts.TTFontFile, *args: object, **kwargs: object) -> None:
        counts["parsed"] += 1
        real(self, *args, **kwargs)  # type: ignore[arg-type]

    ttfonts.TTFontFile.extractInfo = counted  # type: ignore[method-assign]
    parent = os.getpid()
    totals = out.with_suffix(".parts")

    def report() -> None:  # each process adds its own line; the parent sums them
        with open(totals, "a", encoding="utf-8") as file:
            file.write(json.dumps(counts) + "\n")

    def exiting(code: int = 0, real_exit=os._exit) -> None:  # a forked worker's end
        report()
        real_exit(code)

    os.register_at_fork(after_in_child=lambda: setattr(os, "_exit", exiting))
    sys.argv = ["generator", *argv[1:]]
    sys.path.insert(0, str(ROOT))
    code = 0
    try:
        runpy.run_module("generator", run_name="__main__", alter_sys=True)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    if os.getpid() == parent:
        report()
        summed = {"compiled": 0, "parsed": 0}
        for line in totals.read_text(encoding="utf-8").splitlines():
            for key, value in json.loads(line).items():
                summed[key] += value
        totals.unlink()
        out.write_text(json.dumps(summed), encoding="utf-8")
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
