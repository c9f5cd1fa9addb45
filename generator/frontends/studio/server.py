"""The studio's HTTP side: a small WSGI application on Werkzeug's threaded server.

Why Werkzeug: it is the Pallets project's WSGI toolkit (the same maintainers as Jinja2, which
the tool already uses), pure Python, with one dependency (MarkupSafe, already installed by
Jinja2); it gives a threaded server that streams a response (Server-Sent Events need no more)
and well-tested request parsing. A framework on top (Flask, Starlette) would add routing and
templating the studio does not need.

Safe by default, as Jupyter's notebook server is:
- it listens on 127.0.0.1 only, and answers only requests whose Host is that address or
  ``localhost`` on its port (a web page elsewhere cannot reach it by rebinding a name);
- every request carries the random token the server printed (``?token=``), compared in
  constant time; without it the answer is 403 and nothing else;
- it serves only what it made: the page's three files by fixed name, the state as JSON, and
  pictures by the names the state gave out (a digest, looked up in a table). No path from a
  request ever reaches the file system, so ``../``, absolute and encoded paths find nothing;
- nothing it answers changes a file: only GET and HEAD are accepted;
- the page's Content-Security-Policy allows its own scripts and pictures only, and the
  ``no-referrer`` policy keeps the token out of any other site's logs.
"""
from __future__ import annotations

import hmac
import re
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from werkzeug.serving import BaseWSGIServer, ThreadedWSGIServer, WSGIRequestHandler
from werkzeug.wrappers import Request, Response

from generator.core import paths

from .state import Studio

STATIC = {"index.html": "text/html; charset=utf-8", "studio.js": "text/javascript; charset=utf-8",
          "studio.css": "text/css; charset=utf-8", "icon.svg": "image/svg+xml"}
PICTURE = re.compile(r"^/picture/([fp][0-9a-f]{16})\.png$")
KEEP_ALIVE_S = 15.0  # an event stream's comment line, so proxies and browsers keep it open
IDLE_S = 30.0  # a connection silent this long (no request, or not reading its answer) is closed
MAX_STREAMS = 32  # event streams open at once (a browser opens at most 6 per host)
MAX_CONNECTIONS = 64  # connections answered at once, each in a thread; past it, closed at once
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


class StudioApp:
    """The WSGI application: one method per kind of answer."""

    def __init__(self, studio: Studio, token: str, port: int) -> None:
        self.studio = studio
        self.token = token
        self.port = port
        self.files = {name: (static_folder() / name).read_bytes() for name in STATIC}
        self.streams = threading.BoundedSemaphore(MAX_STREAMS)  # each open one holds a thread

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        request = Request(environ)
        response = self.answer(request)
        for name, value in HEADERS.items():
            response.headers.setdefault(name, value)
        return response(environ, start_response)

    def allowed_host(self, host: str) -> bool:
        names = {f"127.0.0.1:{self.port}", f"localhost:{self.port}"}
        if self.port == 80:  # Werkzeug drops the scheme's own port from ``request.host``
            names |= {"127.0.0.1", "localhost"}
        return host in names

    def answer(self, request: Request) -> Response:
        if not self.allowed_host(request.host):
            return _plain("unknown host", 403)
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


class QuietHandler(WSGIRequestHandler):
    """No line per request on the terminal: the studio's own lines say what matters. A
    connection that sends no request (or stops reading its answer) is closed after
    ``IDLE_S``: without it each such connection, token or not, held a thread for good."""

    timeout = IDLE_S

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        return None


class StudioServer(ThreadedWSGIServer):
    """Werkzeug's threaded server with a bound on the threads: any process on this machine
    may connect, token or not, and each connection is a thread until it is answered or
    ``IDLE_S`` passes; past ``MAX_CONNECTIONS`` a connection is closed unanswered."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.slots = threading.BoundedSemaphore(MAX_CONNECTIONS)

    def process_request(self, request: Any, client_address: Any) -> None:
        if not self.slots.acquire(blocking=False):
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:  # no thread started: its slot is free again
            self.slots.release()
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.slots.release()


def serve(studio: Studio, token: str, port: int = 0) -> tuple[BaseWSGIServer, threading.Thread]:
    """Start the server on 127.0.0.1 (``port`` 0: any free port) in a thread of its own.
    Werkzeug's threaded server answers each request in a daemon thread, so an open event
    stream never holds the process at exit."""
    app: StudioApp  # made once the server knows its port (the Host check needs it)
    server = StudioServer("127.0.0.1", port, lambda e, s: app(e, s), handler=QuietHandler)
    app = StudioApp(studio, token, server.port)
    thread = threading.Thread(target=server.serve_forever, name="pnp-serve", daemon=True)
    thread.start()
    return server, thread
