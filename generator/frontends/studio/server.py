"""The studio's HTTP side: a small WSGI application on Werkzeug's threaded server.

Why Werkzeug: it is the Pallets project's WSGI toolkit (the same maintainers as Jinja2, which
the tool already uses), pure Python, with one dependency (MarkupSafe, already installed by
Jinja2); it gives a threaded server that streams a response (Server-Sent Events need no more)
and well-tested request parsing. A framework on top (Flask, Starlette) would add routing and
templating the studio does not need.

Safe by default, as Jupyter's notebook server is:
- it listens on 127.0.0.1 only, and answers only requests with exactly one Host header, that
  address or ``localhost`` on its port (a web page elsewhere cannot reach it by rebinding a
  name); a request line in absolute form (``GET http://host/ HTTP/1.1``) must name it too.
  Checked on the head as it came (``QuietHandler``): Werkzeug's environ joins repeated
  headers and replaces the Host header by an absolute form's authority;
- every request carries the random token the server printed (``?token=``), compared in
  constant time; without it the answer is 403 and nothing else;
- it serves only what it made: the page's three files by fixed name, the state as JSON, and
  pictures by the names the state gave out (a digest, looked up in a table). No path from a
  request ever reaches the file system, so ``../``, absolute and encoded paths find nothing;
- nothing it answers changes a file: only GET and HEAD are accepted;
- the page's Content-Security-Policy allows its own scripts and pictures only, and the
  ``no-referrer`` policy keeps the token out of any other site's logs;
- no local process can starve it of connections (``StudioServer``): a connection has
  ``HEAD_S`` for its whole request head, however it trickles, and when every slot is taken the
  oldest connection not being answered makes way for the new one.
"""
from __future__ import annotations

import contextlib
import hmac
import io
import itertools
import re
import socket
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from werkzeug.serving import BaseWSGIServer, ThreadedWSGIServer, WSGIRequestHandler
from werkzeug.wrappers import Request, Response

from generator.core import paths

from .state import Studio

STATIC = {"index.html": "text/html; charset=utf-8", "studio.js": "text/javascript; charset=utf-8",
          "studio.css": "text/css; charset=utf-8", "icon.svg": "image/svg+xml"}
PICTURE = re.compile(r"^/picture/([fp][0-9a-f]{16})\.png$")
KEEP_ALIVE_S = 15.0  # an event stream's comment line, so proxies and browsers keep it open
IDLE_S = 30.0  # a connection silent this long (no request, or not reading its answer) is closed
HEAD_S = 20.0  # a connection's whole request head (and all it sends after) within this
MAX_STREAMS = 32  # event streams open at once (a browser opens at most 6 per host)
MAX_CONNECTIONS = 64  # connections held at once, each in a thread (StudioServer: who makes way)
RETRY_MS = 5000  # past MAX_STREAMS, a stream says only this and ends: the browser asks again
HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; "
                               "img-src 'self'; connect-src 'self'; base-uri 'none'; "
                               "form-action 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Resource-Policy": "same-origin",
}


def static_folder() -> Path:
    return paths.TEMPLATES / "studio"


def our_host(host: str, port: int) -> bool:
    """Whether a Host header (or an absolute-form authority) names this server: 127.0.0.1 or
    localhost on its port, exactly (no user part, no trailing dot, no other spelling of the
    address). A browser leaves out the scheme's own port 80, so there the bare names too."""
    names = {f"127.0.0.1:{port}", f"localhost:{port}"}
    if port == 80:
        names |= {"127.0.0.1", "localhost"}
    return host in names


def our_request(hosts: list[str], target: str, port: int) -> bool:
    """Whether a request head is addressed to this server: exactly one Host header, ours, and
    a request target that is a path (origin form) or an ``http`` URL whose authority is ours
    too. A server must accept the absolute form (RFC 9112, 3.2.2) and takes its authority
    over the Host header, as Werkzeug does: checking the header alone let ``GET
    http://127.0.0.1:<port>/ HTTP/1.1`` with a foreign Host through. No Host at all (HTTP/1.0)
    is refused: every browser sends one."""
    if len(hosts) != 1 or not our_host(hosts[0].strip(" \t"), port):
        return False
    if target.startswith("/"):
        return True
    try:
        parts = urlsplit(target)
    except ValueError:  # ``http://[::1/``: not a URL at all
        return False
    return parts.scheme == "http" and our_host(parts.netloc, port)


class StudioApp:
    """The WSGI application: one method per kind of answer. The Host check is made before it,
    on the request head itself (``QuietHandler``)."""

    def __init__(self, studio: Studio, token: str) -> None:
        self.studio = studio
        self.token = token
        self.files = {name: (static_folder() / name).read_bytes() for name in STATIC}
        self.streams = threading.BoundedSemaphore(MAX_STREAMS)  # each open one holds a thread

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        request = Request(environ)
        response = self.answer(request)
        for name, value in HEADERS.items():
            response.headers.setdefault(name, value)
        return response(environ, start_response)

    def answer(self, request: Request) -> Response:
        given = request.args.get("token", "")
        if not hmac.compare_digest(given.encode("utf-8", "replace"), self.token.encode()):
            return _plain("a token is needed: open the address pnp serve printed", 403)
        if request.method not in ("GET", "HEAD"):
            return _plain("the studio only reads", 405)
        path = request.path
        if path in ("/", "/index.html"):
            return self.static("index.html")
        if path.startswith("/static/") and path[len("/static/"):] in STATIC:
            return self.static(path[len("/static/"):])
        if path == "/api/state":
            return Response(self.studio.state(), mimetype="application/json",
                            headers={"Cache-Control": "no-store"})
        if path == "/api/events":
            return self.events(request)
        found = PICTURE.match(path)
        if found:
            data = self.studio.pictures.png(found.group(1))
            if data is not None:
                return Response(data, mimetype="image/png", headers={
                    "Cache-Control": "private, max-age=31536000, immutable"})
        found = re.match(r"^/chart/(\d{1,2})\.png$", path)
        if found:
            chart = self.studio.chart(int(found.group(1)))
            if chart is not None:
                return Response(chart, mimetype="image/png", headers={"Cache-Control": "no-store"})
        return _plain("not found", 404)

    def static(self, name: str) -> Response:
        """One of the page's files; the page itself names the others with the token (a
        URL-safe random string: nothing to escape)."""
        data = self.files[name]
        if name == "index.html":
            data = data.replace(b"__TOKEN__", self.token.encode("ascii"))
        return Response(data, mimetype=STATIC[name].split(";")[0],
                        headers={"Cache-Control": "no-store"})

    def events(self, request: Request) -> Response:
        """Server-Sent Events: the version each time it moves, a comment to keep alive."""
        studio = self.studio
        try:
            seen = int(request.args.get("since", "-1"))
        except ValueError:
            seen = -1

        def stream() -> Iterator[bytes]:
            nonlocal seen
            # Taken and given back here, in the stream itself: Werkzeug closes it when the
            # browser goes, and never starts it for a HEAD.
            if not self.streams.acquire(blocking=False):  # one client opening stream after
                yield f"retry: {RETRY_MS}\n\n".encode()  # stream must not hold every thread
                return
            try:
                yield b"retry: 500\n\n"
                while not studio.closing:
                    version = studio.wait(seen, KEEP_ALIVE_S)
                    if studio.closing:
                        return
                    if version != seen:
                        seen = version
                        yield f"data: {version}\n\n".encode()
                    else:
                        yield b": still here\n\n"
            finally:
                self.streams.release()

        return Response(stream(), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


def _plain(text: str, status: int) -> Response:
    return Response(text + "\n", status=status, mimetype="text/plain")


class DeadlineReader(io.RawIOBase):
    """A connection's bytes, each read given only the time left before one deadline.

    A socket's timeout bounds one ``recv``: with ``IDLE_S`` alone a client sending one byte
    every 10 s kept its connection (and its thread) for good. Here every ``recv`` waits at most
    what is left of the connection's ``HEAD_S`` (``IDLE_S`` at most), so the whole head, and
    whatever Werkzeug drains after the answer, ends by the deadline. A monotonic clock: this
    guards a socket, it decides nothing about what is built."""

    def __init__(self, connection: socket.socket, deadline: float, idle_s: float) -> None:
        super().__init__()
        self.connection = connection
        self.deadline = deadline
        self.idle_s = idle_s

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the request was not sent in time")
        self.connection.settimeout(min(left, self.idle_s))
        return self.connection.recv_into(buffer)


class QuietHandler(WSGIRequestHandler):
    """No line per request on the terminal: the studio's own lines say what matters (nor one
    per malformed or timed-out request: any local process could fill the terminal with them).
    A connection that stops reading its answer is closed after ``IDLE_S``; one that does not
    send its whole request head within the server's ``head_s`` (``DeadlineReader``) is closed
    then. The head is checked as it came (``our_request``) before the application sees it."""

    timeout = IDLE_S
    server: StudioServer

    def setup(self) -> None:
        super().setup()
        self.rfile.close()  # the plain reader, replaced by one that keeps the deadline
        deadline = time.monotonic() + self.server.head_s
        self.rfile = io.BufferedReader(DeadlineReader(self.connection, deadline, IDLE_S
                                                      if self.timeout is None else self.timeout))

    def parse_request(self) -> bool:
        if not super().parse_request():  # refused as malformed (and answered so)
            return False
        self.connection.settimeout(self.timeout)  # the answer's writes: IDLE_S each
        if not our_request(self.headers.get_all("Host") or [], self.path, self.server.port):
            self.refuse(403, "unknown host")
            return False
        self.server.answering(self.connection)
        return True

    def refuse(self, status: int, text: str) -> None:
        """A plain answer written here, before Werkzeug makes an environ of the head (its
        ``urlsplit`` raises on a target such as ``http://[::1/``), with the studio's headers."""
        body = f"{text}\n".encode()
        self.send_response(status)
        for name, value in {**HEADERS, "Content-Type": "text/plain; charset=utf-8",
                            "Content-Length": str(len(body)), "Connection": "close"}.items():
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        return None

    def log_error(self, format: str, *args: Any) -> None:
        return None


class StudioServer(ThreadedWSGIServer):
    """Werkzeug's threaded server with a bound on its threads that no local process can use
    up: any process on this machine may connect, token or not, and each connection is a
    thread until it is answered and closed.

    At most ``max_connections`` are held. When all are taken, the oldest connection that is
    not being answered (its head not complete yet, or its answer sent and its input being
    drained) is shut down and the new one takes its place; only when every held connection is
    being answered is the new one closed unanswered. A connection counts as being answered
    once its whole head has come, addressed to this server; without the token its answer is
    a short 403 sent at once. So a stranger holds slots only while it waits, and the waiting
    ones are the first to go: the designer's browser, which sends its head as it connects,
    finds a slot, and loses it only if ``max_connections`` newer connections arrive before
    its head is complete (oldest first by admission order, a counter).

    A cap per peer would not do this: every local process connects from 127.0.0.1 (only the
    ephemeral port differs, and TCP tells nothing of the process behind it), so a cap per
    address is the global cap under another name. Evicted connections end at once (their
    socket is shut down under their read); while ``max_connections`` of them are still
    ending, nothing more is evicted, so the threads never number more than twice the bound.
    ``head_s`` and ``max_connections`` are read from ``HEAD_S`` and ``MAX_CONNECTIONS`` when
    the server is made (tests make them small)."""

    def __init__(self, host: str, port: int, app: Callable[..., Iterable[bytes]],
                 **kwargs: Any) -> None:
        super().__init__(host, port, self.marking(app), **kwargs)
        self.head_s = HEAD_S
        self.max_connections = MAX_CONNECTIONS
        self.lock = threading.Lock()
        self.held: dict[socket.socket, int] = {}  # each connection held: its admission number
        self.answered_now: set[socket.socket] = set()  # held ones being answered
        self.ending: set[socket.socket] = set()  # evicted ones whose thread is still ending
        self.admissions = itertools.count()

    def process_request(self, request: Any, client_address: Any) -> None:
        if not self.admit(request):
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:  # no thread started: its slot is free again
            self.release(request)
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.release(request)

    def admit(self, connection: socket.socket) -> bool:
        """Hold a new connection, making way for it if every slot is taken."""
        with self.lock:
            if len(self.held) >= self.max_connections:
                waiting = [c for c in self.held if c not in self.answered_now]
                if not waiting or len(self.ending) >= self.max_connections:
                    return False
                oldest = min(waiting, key=self.held.__getitem__)
                del self.held[oldest]
                self.ending.add(oldest)
                with contextlib.suppress(OSError):  # its read returns at once: its thread ends
                    oldest.shutdown(socket.SHUT_RDWR)
            self.held[connection] = next(self.admissions)
            return True

    def release(self, connection: socket.socket) -> None:
        with self.lock:
            self.held.pop(connection, None)
            self.ending.discard(connection)
            self.answered_now.discard(connection)

    def answering(self, connection: socket.socket) -> None:
        """A connection's head passed the checks: it is not evicted while it is answered."""
        with self.lock:
            if connection in self.held:
                self.answered_now.add(connection)

    def answered(self, connection: socket.socket) -> None:
        with self.lock:
            self.answered_now.discard(connection)

    def marking(self, app: Callable[..., Iterable[bytes]]) -> Callable[..., Iterator[bytes]]:
        """``app``, its connection marked answered (evictable again) when its answer ends:
        Werkzeug then drains what the client still sends, and a client trickling bytes
        there must not hold its slot any more than one trickling its head."""

        def marked(environ: dict[str, Any], start_response: Any) -> Iterator[bytes]:
            answer = app(environ, start_response)
            try:
                yield from answer
            finally:
                self.answered(environ["werkzeug.socket"])
                close = getattr(answer, "close", None)
                if close is not None:
                    close()

        return marked


def serve(studio: Studio, token: str, port: int = 0) -> tuple[BaseWSGIServer, threading.Thread]:
    """Start the server on 127.0.0.1 (``port`` 0: any free port) in a thread of its own.
    Werkzeug's threaded server answers each request in a daemon thread, so an open event
    stream never holds the process at exit."""
    server = StudioServer("127.0.0.1", port, StudioApp(studio, token), handler=QuietHandler)
    thread = threading.Thread(target=server.serve_forever, name="pnp-serve", daemon=True)
    thread.start()
    return server, thread
