"""The one way the tool starts a child process, and the import path it runs with.

A project folder is a stranger's files, and the current folder is usually one. Python puts the
current folder first on the import path of ``python -c`` and ``python -m`` (the spawn and
forkserver start methods run ``python -c``), so a project shipping ``multiprocessing/``,
``jinja2/`` or ``json.py`` would have its file imported in place of the library's, untrusted
(issue 35). So:

- ``drop_cwd`` takes the current folder off ``sys.path`` (``python -m generator`` calls it
  first thing, generator/__main__.py); kept only when it is the checkout that holds this very
  ``generator`` package (``python -m generator`` run from the repository);
- ``context`` is every child's start: it sets ``PYTHONSAFEPATH=1`` in this process's
  environment before any child starts (Python 3.11's ``-P``: a ``python -c`` child puts no
  folder first), drops the current folder from the path the spawn and forkserver children copy
  from this one, and returns the ``multiprocessing`` context to start them with. Every pool and
  process the tool starts comes from here (the studio's play child, simulate's pool, the
  parallel build, the PNG export).

``PNP_START_METHOD`` (``spawn`` or ``forkserver``) overrides the start method of every caller
that does not need ``fork`` (the studio's play child, simulate's pool): the tests start those
children each way, and a platform whose default differs can be tried on one machine. A caller
asking for ``fork`` (the parallel build and the PNG export hand their workers the parent's
loaded fonts and art) keeps it: a forked child runs no new interpreter and imports nothing
from the current folder that its parent did not.

Only ``os`` and ``sys`` are imported at the top (both loaded before any module of the tool):
``generator/__main__.py`` imports this module while the current folder may still be on the path.
"""
import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from multiprocessing.context import (
        DefaultContext,
        ForkContext,
        ForkServerContext,
        SpawnContext,
    )

    Context = DefaultContext | ForkContext | ForkServerContext | SpawnContext

METHOD_ENV = "PNP_START_METHOD"
METHODS = ("spawn", "forkserver")
# The checkout (or site-packages folder) that holds this ``generator`` package.
TOOL_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def drop_cwd() -> None:
    """Take the current folder (``''`` or its path) off ``sys.path``, unless it is the folder
    holding this tool's own ``generator`` package."""
    try:
        here = os.path.realpath(os.getcwd())
    except OSError:  # the current folder was deleted: only '' can name it
        here = None
    root = os.path.realpath(TOOL_ROOT)
    kept = []
    for entry in sys.path:
        real = os.path.realpath(entry) if entry else here
        if (entry == "" or real == here) and real != root:
            continue
        kept.append(entry)
    sys.path[:] = kept


def context(method: str | None = None) -> "Context":
    """The ``multiprocessing`` context to start children with: ``method`` (what the caller
    needs: ``fork`` where the parent's state is shared, ``spawn`` for a fresh interpreter;
    None: the platform's default), or else ``PNP_START_METHOD`` when set. Children started from
    it never import from the current folder, whichever method starts them."""
    import multiprocessing  # only a command that starts a child pays for it

    forced = os.environ.get(METHOD_ENV, "").strip()
    if forced and method != "fork":
        if forced not in METHODS:
            from generator.core.words import said  # only on this error: see the imports above

            raise ValueError(f"{METHOD_ENV}={said(forced)}: expected one of {', '.join(METHODS)}")
        method = forced
    os.environ["PYTHONSAFEPATH"] = "1"
    drop_cwd()
    return multiprocessing.get_context(method)  # type: ignore[return-value]
