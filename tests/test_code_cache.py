"""The compiled-expression code cache (generator/core/code_cache.py, used by
generator/expressions/compiler.py): a process compiles no string another compiled before it,
a hit behaves as the compile did, and only entries this user alone could have written are read.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from generator.core import code_cache, memo
from generator.expressions import ENV, ExpressionError, Scope, compiler, evaluate
from tests.processes import run_script

# Counts, in a fresh process, the strings Python compiles as expression or template code (the
# "compile" audit event: every compile() of Jinja's and ours), and prints them with the values.
COUNTING = """
import json, sys
count = [0]
def hook(event, args):
    if event == "compile" and args[1] in ("<expression>", "<template>"):
        count[0] += 1
sys.addaudithook(hook)
from generator.expressions import evaluate, names_used
texts = ["{{ x * 3 + 1 }}", "{{ (x|string) ~ '!' }}", "x is {{ x }}{% if x > 1 %}, big{% endif %}",
         "{{ [x, x + 1]|sum }}"]
values = [evaluate(text, {"x": 4}) for text in texts]
names = sorted(names_used("{{ x + y|length }}"))
print(json.dumps({"compiled": count[0], "values": values, "names": names}))
"""


def run_counting(cache: Path, **env: str) -> dict:
    return run_script(COUNTING, cache, **env)


@pytest.mark.slow  # starts processes
def test_a_second_process_compiles_no_expression(tmp_path):
    """PNP_CACHE=0 (no results remembered) still leaves compiled code to the next process."""
    first = run_counting(tmp_path / "cache")
    second = run_counting(tmp_path / "cache")
    assert first["compiled"] == 5  # four strings evaluated, one read for its names
    assert second["compiled"] == 0
    assert first["values"] == second["values"] == [13, "4!", "x is 4, big", 9]
    assert first["names"] == second["names"] == ["x", "y"]
    assert len(list((tmp_path / "cache" / "code").glob("*.code"))) == 5


@pytest.mark.slow  # starts processes
def test_turned_off_it_writes_and_reads_nothing(tmp_path):
    first = run_counting(tmp_path / "cache", PNP_CODE_CACHE="0")
    second = run_counting(tmp_path / "cache", PNP_CODE_CACHE="0")
    assert first["compiled"] == second["compiled"] == 5
    assert not (tmp_path / "cache" / "code").exists()


@pytest.fixture
def unique(tmp_path) -> str:
    """A number no other test's strings hold (``compiled`` is kept for the process)."""
    return str(int.from_bytes(str(tmp_path).encode()[-6:], "big"))


@pytest.fixture
def parses(monkeypatch) -> list[str]:
    """The strings ``compiler.parse`` reads from now on (a hit reads none)."""
    seen: list[str] = []
    real = compiler.parse

    def counted(text: str) -> compiler.Parsed:
        seen.append(text)
        return real(text)
    monkeypatch.setattr(compiler, "parse", counted)
    return seen


def test_a_hit_is_what_compiling_gave(fresh_cache, unique, parses):
    texts = [f"{{{{ n + {unique} }}}}", f"{{{{ n }}}} and {{{{ (n * {unique})|string }}}}"]
    made = [compiler.compiled(text) for text in texts]
    assert parses == texts
    compiler.compiled.cache_clear()  # what a new process starts with
    again = [compiler.compiled(text) for text in texts]
    assert parses == texts  # nothing parsed again
    for one, other in zip(made, again, strict=True):
        assert (one.whole, one.size, one.loads) == (other.whole, other.size, other.loads)
        assert one.code.co_code == other.code.co_code
    scope = Scope({"n": 2})
    assert evaluate(texts[0], scope) == 2 + int(unique)
    assert evaluate(texts[1], scope) == f"2 and {2 * int(unique)}"


def test_a_string_that_fails_is_not_stored(fresh_cache, unique):
    with pytest.raises(ExpressionError, match="No filter named"):
        compiler.compiled(f"{{{{ {unique}|nosuchfilter }}}}")
    assert not list((fresh_cache / "code").glob("*.code"))


def entry_of(fresh_cache: Path, text: str) -> Path:
    compiler.compiled(text)
    compiler.compiled.cache_clear()
    return fresh_cache / "code" / f"{compiler.code_key(text)}.code"


@pytest.mark.parametrize("damage", ["junk", "other key", "bad header", "not code"])
def test_a_damaged_entry_is_compiled_again(fresh_cache, unique, parses, damage):
    text = f"{{{{ m - {unique} }}}}"
    path = entry_of(fresh_cache, text)
    raw = path.read_bytes()
    head, header, body = raw.split(b"\n", 2)
    meta = json.loads(header)
    if damage == "junk":
        raw = raw[:len(raw) // 2]
    elif damage == "other key":
        raw = b"\n".join([head, json.dumps({**meta, "key": "0" * 64}).encode(), body])
    elif damage == "bad header":
        raw = b"\n".join([head, json.dumps({**meta, "size": "3"}).encode(), body])
    else:
        import marshal
        raw = b"\n".join([head, header, marshal.dumps(("not", "code"))])
    path.write_bytes(raw)
    parses.clear()
    assert evaluate(text, {"m": 1}) == 1 - int(unique)
    assert parses == [text]


def test_code_is_read_only_from_this_users_own_folder(fresh_cache, unique, parses):
    text = f"{{{{ k * {unique} }}}}"
    path = entry_of(fresh_cache, text)
    os.chmod(path.parent, 0o777)  # anyone may write into it: nothing in it is read
    memo.forget_all()
    parses.clear()
    assert evaluate(text, {"k": 1}) == int(unique)
    assert parses == [text]
    assert code_cache.load(compiler.code_key(text)) is None
    os.chmod(path.parent, 0o700)
    os.chmod(path, 0o666)  # nor a file anyone may write
    memo.forget_all()
    assert code_cache.load(compiler.code_key(text)) is None
    os.chmod(path, 0o600)
    assert code_cache.load(compiler.code_key(text)) is not None


def test_a_symbolic_link_is_not_followed(fresh_cache, unique):
    text = f"{{{{ j + {unique} }}}}"
    path = entry_of(fresh_cache, text)
    real = path.with_name("elsewhere")
    path.rename(real)
    path.symlink_to(real)
    assert code_cache.load(compiler.code_key(text)) is None


def test_the_key_is_the_whole_text_and_the_environment(monkeypatch):
    base = compiler.code_key("{{ a }}")
    assert compiler.code_key("{{ a }} ") != base
    assert compiler.code_key("{{ a }}") == base
    monkeypatch.setitem(ENV.filters, "a_new_filter", lambda value: value)
    assert compiler.code_key("{{ a }}") != base  # an unknown filter fails compiling


def test_the_folder_is_trimmed_oldest_first(tmp_path):
    folder = tmp_path / "code"
    folder.mkdir()
    for n in range(5):
        entry = folder / f"{n:064x}.code"
        entry.write_bytes(b"x" * 10)
        os.utime(entry, (1000 + n, 1000 + n))
    (folder / "keep.txt").write_text("not an entry")
    code_cache.trim(folder, files=3)
    assert sorted(p.name for p in folder.iterdir()) == [
        *(f"{n:064x}.code" for n in (2, 3, 4)), "keep.txt"]
    code_cache.trim(folder, size=15)
    assert sorted(p.name for p in folder.iterdir()) == [f"{4:064x}.code", "keep.txt"]
