"""``pnp serve``: a live studio in the browser for one game.

It builds the game, opens the browser on a local page and keeps that page current: every
sheet as the printer prints it (front beside back, and a light-table view with the back
mirrored over its front at half strength), every distinct face with its count, the verify
and pre-flight report (a finding marks the pieces it names), what each piece is (click it:
its data row and template lines) and, for a game with an engine, a simulation's summary.

A save anywhere in the project rebuilds it, as ``pnp watch`` does (frontends/watch.py finds
the files and debounces a save); the face cache redraws only the components that changed,
and pictures are named by their content (state.py), so the browser fetches only the
pictures that changed. A save that does not build shows its error over the last good
drawing, until the next good save clears it. Ctrl-C stops (exit 130); so does SIGTERM (exit
143, as a shell reports a process ended by it), cleanly: the chart folder in the temporary
folder is removed either way (``terminated_as_interrupt``).

The parts: ``state`` (what is shown, shared by the threads), ``server`` (HTTP), and the
page itself in templates/studio/ (plain HTML, CSS and JavaScript, nothing fetched from
elsewhere, so it works offline).
"""
from __future__ import annotations

import secrets
import signal
import sys
import tempfile
import threading
import webbrowser
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from generator.core.errors import DataError, location
from generator.frontends import app
from generator.frontends import watch as watcher
from generator.frontends.app import BuildOptions

from .server import serve
from .state import Studio

__all__ = ["Studio", "main", "start"]

PLAY_GAMES = 100  # games per player count and policy in the studio's simulation
PLAY_PAUSE_S = 1.5  # play once the edits have paused this long


def _play(send: Any, data_file: str, folder: str, lang: str) -> None:
    """The child process's work: the balance report and its charts (names in ``folder``),
    sent back, or an error as its lines, marked as one (the status bar says it). At low
    priority: the builds the designer waits for come first."""
    import contextlib
    import os

    with contextlib.suppress(OSError, AttributeError):
        os.nice(10)
    try:
        send.send((*app.balance(data_file, Path(folder), PLAY_GAMES, lang, 1), False))
    except Exception as exc:  # a game that cannot be played: said on the page
        send.send(("\n".join(watcher.error_lines(exc)), [], True))


class Session:
    """One studio: its state, its server and the watcher that feeds it."""

    def __init__(self, target: watcher.Target, opts: BuildOptions, port: int = 0) -> None:
        self.target = target
        self.opts = opts
        self.studio = Studio(target.given, opts.flip if opts.layout == "sheets" else "none")
        self.token = secrets.token_urlsafe(24)
        self.server, self.thread = serve(self.studio, self.token, port)
        self.stop = threading.Event()
        self.play_wanted = threading.Event()
        self.charts = tempfile.TemporaryDirectory(prefix="pnp-serve-")
        self.player: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.port}/?token={self.token}"

    def rebuild(self, target: watcher.Target) -> tuple[Path, int, list[str]]:
        """One build for the watcher: the drawing published as soon as it is laid out, the
        report when it is made; an error published as it is raised (the watcher prints it)."""
        self.studio.started()
        try:
            drawn = app.studio_build(str(target.data_file), self.opts, self.studio.publish)
        except Exception as exc:
            self.studio.fail(watcher.error_lines(exc), _where(exc))
            raise
        self.studio.publish_report(drawn)
        if drawn.unplayable is None:
            self.play_wanted.set()
        else:  # said at once: nothing to play
            self.studio.publish_play(drawn.unplayable, [])
        assert drawn.pdf is not None
        return drawn.pdf, len(drawn.kit.pages), [f.line() for f in drawn.failing]

    def play_loop(self) -> None:
        """The simulation's summary, made again after the builds of a pause in the editing.
        Played in a child process at low priority (seconds of play must never hold up the
        next rebuild, and it shares nothing of the build's state), stopped with the studio;
        a save while it plays asks for another play when it is done."""
        from generator.core import children

        spawn = children.context("spawn")
        while not self.stop.is_set():
            if not self.play_wanted.wait(0.25):
                continue
            self.play_wanted.clear()
            if self.stop.wait(PLAY_PAUSE_S) or self.play_wanted.is_set():
                continue  # still editing (or stopping): play after the next build
            receive, send = spawn.Pipe(duplex=False)
            child = spawn.Process(target=_play, name="pnp-serve-play", daemon=True,
                                  args=(send, str(self.target.data_file), self.charts.name,
                                        self.opts.lang))
            try:
                child.start()
            except (OSError, RuntimeError) as exc:  # no process to play in: said on the page
                self.studio.publish_play(f"the simulation could not start: {exc}", [],
                                         failed=True)
                continue
            finally:
                send.close()
            while not self.stop.is_set() and not receive.poll(0.25):
                if not child.is_alive():
                    break
            if self.stop.is_set():
                child.terminate()
                child.join()  # nothing writes to the chart folder once the loop has ended
                return
            try:
                text, names, failed = receive.recv() if receive.poll() else (
                    "the simulation stopped", [], True)
            except (EOFError, OSError):
                text, names, failed = "the simulation stopped", [], True
            child.join()
            charts = [(Path(self.charts.name) / name).read_bytes() for name in names]
            self.studio.publish_play(text, charts, failed=failed)

    def run(self, report: Callable[[str], None]) -> int:
        self.player = threading.Thread(target=self.play_loop, name="pnp-serve-play",
                                       daemon=True)
        self.player.start()
        try:
            return watcher.watch([self.target], self.rebuild, self.stop, report=report)
        finally:
            self.close()

    def close(self) -> None:
        self.stop.set()
        self.studio.close()
        self.server.shutdown()
        self.server.server_close()
        if self.player is not None and self.player is not threading.current_thread():
            self.player.join()  # it sees ``stop`` within its poll and ends its child first
        self.charts.cleanup()


def has_display() -> bool:
    """Whether a browser window can open here. Without a display Python's ``webbrowser``
    would start a text browser (lynx, w3m) in this very terminal, over the studio's lines;
    there the printed address is for a browser elsewhere (an SSH tunnel, a forwarded port)."""
    import os

    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def _where(exc: BaseException) -> str:
    if isinstance(exc, DataError):
        return location(exc.file, exc.line)
    return ""


class Termination:
    """Whether SIGTERM arrived (``terminated_as_interrupt``)."""

    def __init__(self) -> None:
        self.received = False


@contextmanager
def terminated_as_interrupt() -> Iterator[Termination]:
    """Within the block, SIGTERM (a service manager, ``kill``, a closed terminal's session)
    raises KeyboardInterrupt as Ctrl-C does, so the same ``finally`` blocks run: by default
    SIGTERM ends the process where it stands and left the chart folder in the temporary folder.
    Whether it came is recorded rather than told by the exception's type: watchfiles turns any
    exception a signal handler raises into a plain KeyboardInterrupt. Outside the main thread
    (a test driving ``main`` from another) no handler can be set, and none is."""
    termination = Termination()
    if threading.current_thread() is not threading.main_thread():
        yield termination
        return

    def interrupt(_signum: int, _frame: Any) -> None:
        termination.received = True
        raise KeyboardInterrupt

    before = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield termination
    finally:
        signal.signal(signal.SIGTERM, before)


def start(given: str, opts: BuildOptions, port: int = 0) -> Session:
    """A studio for one game id, data file or project folder, its server already listening
    (tests and ``make bench`` drive it from another thread)."""
    return Session(watcher.find_target(given), opts, port)


def main(given: str, opts: BuildOptions, port: int = 0, open_browser: bool = True,
         report: Callable[[str], Any] | None = None) -> int:
    """``pnp serve`` from the command line: until Ctrl-C (then 130) or SIGTERM (then 143)."""
    say = report or (lambda line: print(line, flush=True))
    with terminated_as_interrupt() as termination:
        try:
            session = start(given, opts, port)
            say(f"studio for {given}: {session.url}")
            say("(open that address; anyone who has it can read the studio)")
            if open_browser and has_display():
                webbrowser.open(session.url)
            session.run(say)
        except KeyboardInterrupt:
            print("stopped serving", file=sys.stderr)
            return 143 if termination.received else 130
    return 0
