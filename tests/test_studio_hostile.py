"""``pnp serve`` attacked: from the network (no token or a wrong one, odd paths in every
encoding, every method, Host games in the header and the request line, idle and trickling
connections, many event streams, SIGTERM) and from a hostile project (markup and script in
every text, a lone surrogate, a face slow to draw). The studio answers only its token holder,
serves only what it made, writes nothing, keeps its threads bounded, stays responsive to the
designer whatever another local process holds, leaves nothing in the temporary folder, and
shows every text as text."""
from __future__ import annotations

import hashlib
import json
import select
import signal
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from generator.frontends.studio import server as studio_server
from generator.frontends.studio.server import our_host
from generator.frontends.studio.state import piece_key
from generator.orchestration.options import BuildOptions
from tests.designer import edit
from tests.test_studio import (
    LOADED,
    PATIENCE_S,
    Running,
    browser,
    fresh_studio,  # noqa: F401  (the fixture studio)
    needs_browser,
    pictures,
    pnp_serve,
    read_only_studio,  # noqa: F401  (the fixture one_studio)
    serving,
    shot,
    starter,
    wait_js,
)

pytestmark = pytest.mark.slow  # every test here builds or exports kits, or starts processes


def raw(running: Running, request: bytes | str, patience: float = PATIENCE_S) -> bytes:
    """Send bytes as they are (no client tidies the path) and read the whole answer."""
    data = request.encode("latin-1") if isinstance(request, str) else request
    with socket.create_connection(("127.0.0.1", running.session.server.port),
                                  timeout=patience) as conn:
        conn.sendall(data)
        out = b""
        while chunk := conn.recv(65536):
            out += chunk
        return out


def status_of(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/") else 0


def get_raw(running: Running, target: str, host: str | None = None, method: str = "GET",
            extra: str = "") -> bytes:
    host = host or f"127.0.0.1:{running.session.server.port}"
    return raw(running, f"{method} {target} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n"
                        f"{extra}\r\n")


# -- from the network ----------------------------------------------------------------------
def test_the_token_is_read_from_the_query_alone_and_only_its_first_value(studio):
    studio.built()
    token = studio.session.token
    assert status_of(get_raw(studio, f"/?token={token}")) == 200
    for target, extra in [
        ("/", f"Authorization: token {token}\r\n"), ("/", f"Cookie: token={token}\r\n"),
        (f"/;token={token}", ""), (f"/?TOKEN={token}", ""), (f"/?token=x&token={token}", ""),
        (f"/?token={token}x", ""), (f"/?token={token[:-1]}", ""), ("/?token=", ""),
        (f"/?token={token}%00", ""), (f"/{token}", ""), ("/?token[]=" + token, ""),
    ]:
        answer = get_raw(studio, target, extra=extra)
        assert status_of(answer) == 403, target
        assert b"<html" not in answer, target


def test_only_its_own_host_and_port_are_answered(studio):
    studio.built()
    port, token = studio.session.server.port, studio.session.token
    assert status_of(get_raw(studio, f"/?token={token}", host=f"localhost:{port}")) == 200
    for host in (f"LOCALHOST.:{port}", f"localhost.:{port}", f"[::1]:{port}", "127.0.0.1",
                 "localhost", f"127.0.0.1:{port + 1}", f"127.0.0.1:{port}.evil.example",
                 f"evil.example:{port}", f"127.1:{port}", f"2130706433:{port}",
                 f"0.0.0.0:{port}", f"127.0.0.1:{port}@evil.example"):
        assert status_of(get_raw(studio, f"/?token={token}", host=host)) == 403, host
    # a page elsewhere reached by rebinding its name sends its own name
    assert status_of(get_raw(studio, f"/api/state?token={token}", host="rebind.example")) == 403


def test_the_scheme_port_is_allowed_without_its_number():
    """A browser leaves ``:80`` out of the Host it sends: ``--port 80`` must still answer."""
    assert our_host("127.0.0.1", 80) and our_host("localhost:80", 80)
    assert not our_host("127.0.0.1", 8080)


def test_an_absolute_request_line_must_name_the_studio_too(one_studio, capfd):
    """The request line's authority wins over the Host header (RFC 9112, and Werkzeug's
    environ): both must be ours."""
    studio = one_studio
    port, token = studio.session.server.port, studio.session.token
    ours = f"127.0.0.1:{port}"
    assert status_of(get_raw(studio, f"http://{ours}/api/state?token={token}")) == 200
    for target, host in [
        (f"http://evil.example/api/state?token={token}", ours),
        (f"http://{ours}/api/state?token={token}", "evil.example"),  # the hole it was
        (f"http://evil.example:{port}/api/state?token={token}", ours),
        (f"http://{ours}@evil.example/api/state?token={token}", ours),
        (f"http://x@{ours}/api/state?token={token}", ours),
        (f"https://{ours}/api/state?token={token}", ours),
        (f"HTTP://localhost.:{port}/api/state?token={token}", ours),
        (f"ftp://{ours}/api/state?token={token}", ours),
        (f"http://[::1/api/state?token={token}", ours),  # not a URL: urlsplit raises
        (f"{ours}/api/state?token={token}", ours),
        ("*", ours),
    ]:
        answer = get_raw(studio, target, host=host)
        assert status_of(answer) == 403, (target, host)
        assert b"unknown host" in answer and b'"version"' not in answer, (target, host)
    assert "Traceback" not in capfd.readouterr().err  # nothing a stranger sends prints one


def test_exactly_one_host_header_ours(one_studio):
    studio = one_studio
    port, token = studio.session.server.port, studio.session.token
    ours, target = f"127.0.0.1:{port}", f"/api/state?token={token}"
    for heads in [f"Host: {ours}\r\nHost: {ours}\r\n", f"Host: {ours}\r\nHost: evil.example\r\n",
                  f"Host: evil.example\r\nHost: {ours}\r\n",
                  f"Host: {ours}\r\nhost: localhost:{port}\r\n", "Host:\r\n",
                  f"Host: {ours}\r\n\tevil.example\r\n", f"Host : {ours}\r\n"]:
        answer = raw(studio, f"GET {target} HTTP/1.1\r\n{heads}Connection: close\r\n\r\n")
        assert status_of(answer) in (400, 403), heads
        assert b'"version"' not in answer, heads
    # no Host at all (HTTP/1.0 allows it; no browser leaves it out)
    assert status_of(raw(studio, f"GET {target} HTTP/1.0\r\n\r\n")) == 403
    assert status_of(raw(studio, f"GET {target} HTTP/1.1\r\nHost: {ours}\r\n"
                                 "Connection: close\r\n\r\n")) == 200


TRAVERSALS = [
    "/%252e%252e/%252e%252e/etc/passwd", "/..%5c..%5cgame.yaml", "/static/..\\..\\game.yaml",
    "/%c0%ae%c0%ae/etc/passwd", "/%EF%BC%8E%EF%BC%8E/etc/passwd", "/etc/passwd%00.png",
    "/static/studio.js%00", "/static/studio.js/", "/static/%2e%2e/static/studio.js",
    "/static/studio.js%2f..%2f..%2fgame.yaml", "/STATIC/studio.js", "/static//studio.js",
    "/static/./studio.js", "/api/state/", "/api/state/../state", "/api//state",
    "/picture/p0000000000000000.png%0a", "/chart/%D9%A0.png", "/chart/0.png%0a",
    "/output/game/game.pdf", "/game.pdf", "/game.kit.json", "/faces/card.yaml",
    "/generator/frontends/studio/server.py", "/templates/studio/studio.js", "/proc/self/environ",
    "file:///etc/passwd", "//etc/passwd", "/%2F%2Fetc%2Fpasswd", "/\u00e9",
]


@pytest.mark.parametrize("target", TRAVERSALS)
def test_no_path_in_any_encoding_reads_a_file(one_studio, target):
    studio = one_studio
    token = studio.session.token
    answer = get_raw(studio, f"{target}{'&' if '?' in target else '?'}token={token}"
                     .encode().decode("latin-1"))
    assert status_of(answer) in (400, 403, 404), target
    body = answer.partition(b"\r\n\r\n")[2]
    for secret in (b"root:", b"%PDF", b"elements:", b"tables:", b"import ", b"PATH=",
                   b'"use strict"'):
        assert secret not in body, (target, secret)


def test_every_method_but_get_and_head_is_refused_and_no_answer_allows_another_origin(studio):
    studio.built()
    token = studio.session.token
    head = get_raw(studio, f"/api/state?token={token}", method="HEAD")
    assert status_of(head) == 200 and head.endswith(b"\r\n\r\n")  # the headers, no body
    for method in ("OPTIONS", "POST", "PUT", "DELETE", "PATCH", "TRACE", "PROPFIND", "MKCOL"):
        for target in (f"/api/state?token={token}", "/api/state"):
            answer = get_raw(studio, target, method=method, extra="Content-Length: 0\r\n")
            assert status_of(answer) in (403, 405), (method, target)
    origin = "Origin: http://evil.example\r\nAccess-Control-Request-Method: GET\r\n"
    for target in ("/", "/api/state", "/api/events", "/static/studio.js",
                   f"/picture/{pictures(studio.state())[0][0]}.png"):
        for method in ("HEAD" if target == "/api/events" else "GET", "OPTIONS"):
            answer = get_raw(studio, f"{target}?token={token}", method=method, extra=origin)
            head = answer.partition(b"\r\n\r\n")[0].lower()
            assert b"access-control-allow" not in head, (method, target)
            if method != "OPTIONS":
                assert b"cross-origin-resource-policy: same-origin" in head, target


def test_very_long_lines_are_refused_and_the_server_answers_afterwards(studio):
    studio.built()
    token = studio.session.token
    assert status_of(get_raw(studio, "/" + "a" * 70_000 + f"?token={token}")) == 414
    assert status_of(get_raw(studio, f"/?token={token}", extra="X-A: " + "b" * 70_000
                             + "\r\n")) in (400, 431)
    many = "".join(f"X-{n}: y\r\n" for n in range(150))
    assert status_of(get_raw(studio, f"/?token={token}", extra=many)) == 431
    query = "&".join(f"k{n}=v" for n in range(5000))
    assert status_of(get_raw(studio, f"/api/state?{query}&token={token}")) == 200
    assert status_of(get_raw(studio, f"/api/events?since={'9' * 5000}&token={token}",
                             method="HEAD")) == 200
    assert studio.get("/api/state")[0] == 200


@pytest.fixture
def small(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Running]:
    """A studio with room for 6 connections, 2 event streams, and 3 s of silence."""
    monkeypatch.setattr(studio_server, "MAX_CONNECTIONS", 6)
    monkeypatch.setattr(studio_server, "MAX_STREAMS", 2)
    monkeypatch.setattr(studio_server, "KEEP_ALIVE_S", 0.2)
    monkeypatch.setattr(studio_server.QuietHandler, "timeout", 3.0)
    with serving(tmp_path) as running:
        yield running


def port_of(running: Running) -> tuple[str, int]:
    return ("127.0.0.1", running.session.server.port)


def test_silent_connections_hold_no_thread_for_long_and_make_way_for_a_request(small):
    small.built()
    idle = [socket.create_connection(port_of(small), timeout=PATIENCE_S) for _ in range(6)]
    try:
        until_held(small, 6)
        # every slot is held by a connection that says nothing: the oldest makes way
        assert small.get("/api/state")[0] == 200
        for conn in idle:  # ...and the silent ones are closed by the server, not kept
            assert conn.recv(100) == b""
    finally:
        for conn in idle:
            conn.close()
    assert small.get("/api/state")[0] == 200  # the designer's page is answered again


def test_past_the_bound_of_connections_being_answered_the_next_is_closed(tmp_path, monkeypatch):
    """Only connections being answered (here event streams, which need the token) are never
    made to give way: when they hold every slot, a new one is closed unanswered."""
    monkeypatch.setattr(studio_server, "MAX_CONNECTIONS", 4)
    monkeypatch.setattr(studio_server, "MAX_STREAMS", 4)
    monkeypatch.setattr(studio_server, "KEEP_ALIVE_S", 0.2)
    with serving(tmp_path) as running:
        running.built()
        streams = [open_stream(running) for _ in range(4)]
        try:
            assert all(s.readline() == b"retry: 500\n" for s in streams)
            until_held(running, 4)
            extra = socket.create_connection(port_of(running), timeout=PATIENCE_S)
            extra.sendall(f"GET /?token={running.session.token} HTTP/1.1\r\nHost: "
                          f"127.0.0.1:{running.session.server.port}\r\n\r\n".encode())
            assert extra.recv(100) == b""
            extra.close()
        finally:
            for stream in streams:
                stream.close()
        # a closed stream gives its slot back (at its next keep-alive line)
        end = time.monotonic() + PATIENCE_S
        while True:
            try:
                assert running.get("/api/state")[0] == 200
                break
            except ConnectionError:
                if time.monotonic() > end:
                    raise


class Trickle:
    """Connections that each send a request head one byte at a time (every ``every_s``) and
    never finish it: any local process can do this, token or not. ``ended`` lists, in the
    order seen, the connections the server closed (or answered) while they trickled."""

    def __init__(self, running: Running, count: int, every_s: float = 0.2) -> None:
        port = running.session.server.port
        self.head = (f"GET /api/state?token={running.session.token} HTTP/1.1\r\n"
                     f"Host: 127.0.0.1:{port}\r\nX-Slow: ").encode()
        self.conns = [socket.create_connection(port_of(running), timeout=PATIENCE_S)
                      for _ in range(count)]
        self.ended: list[int] = []
        self.sent = 0
        self.every_s = every_s
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        while not self.stopped.wait(self.every_s):
            byte = self.head[self.sent:self.sent + 1] or b"a"
            self.sent += 1
            for number, conn in enumerate(self.conns):
                if number in self.ended:
                    continue
                try:
                    conn.sendall(byte)
                    if select.select([conn], [], [], 0)[0]:  # EOF, or an answer: not held
                        self.ended.append(number)
                except OSError:
                    self.ended.append(number)

    def until_ended(self, count: int) -> list[int]:
        """The connections ended, once ``count`` have (polled; the patience is no assertion)."""
        end = time.monotonic() + PATIENCE_S
        while len(self.ended) < count and time.monotonic() < end:
            time.sleep(0.05)
        return list(self.ended)

    def close(self) -> None:
        self.stopped.set()
        self.thread.join(PATIENCE_S)
        for conn in self.conns:
            conn.close()


def until_held(running: Running, count: int) -> None:
    """Wait until the server holds ``count`` connections (it admits them on its own thread)."""
    end = time.monotonic() + PATIENCE_S
    while len(running.session.server.held) < count and time.monotonic() < end:
        time.sleep(0.02)


def test_a_trickled_head_holds_its_slot_no_longer_than_the_deadline(tmp_path, monkeypatch):
    """One byte every 0.2 s passes any per-read timeout; the head's deadline ends it all the
    same (made short here: the test does not wait 20 s)."""
    monkeypatch.setattr(studio_server, "MAX_CONNECTIONS", 6)
    monkeypatch.setattr(studio_server, "HEAD_S", 1.0)
    with serving(tmp_path) as running:
        running.built()
        trickle = Trickle(running, 6)
        try:
            assert sorted(trickle.until_ended(6)) == list(range(6))  # each closed, unanswered
        finally:
            trickle.close()
        assert running.get("/api/state")[0] == 200


def test_a_request_is_answered_while_64_connections_trickle(tmp_path, monkeypatch):
    """Every slot held by a trickling head, and the deadline far off: the designer's request
    is still answered, the oldest trickler making way for it, and only that one."""
    monkeypatch.setattr(studio_server, "HEAD_S", PATIENCE_S * 10)
    with serving(tmp_path) as running:
        running.built()
        assert running.session.server.max_connections == 64
        trickle = Trickle(running, 64)
        try:
            until_held(running, 64)
            assert trickle.ended == []
            assert running.get("/api/state")[0] == 200
            assert trickle.until_ended(1) == [0]
        finally:
            trickle.close()


def test_connections_being_answered_are_not_the_ones_to_make_way(small):
    small.built()
    streams = [open_stream(small) for _ in range(2)]  # the oldest two, being answered
    try:
        assert all(s.readline() == b"retry: 500\n" for s in streams)
        trickle = Trickle(small, 4)
        try:
            until_held(small, 6)
            assert small.get("/api/state")[0] == 200
            assert trickle.until_ended(1) == [0]  # the oldest waiting one, not a stream
            for stream in streams:  # still open, still told the news
                lines = [stream.readline() for _ in range(40)]
                assert b"" not in lines and b": still here\n" in lines
        finally:
            trickle.close()
    finally:
        for stream in streams:
            stream.close()


def open_stream(running: Running) -> Any:
    return urllib.request.urlopen(f"{running.base}/api/events?token={running.session.token}",
                                  timeout=PATIENCE_S)


def test_one_client_opening_stream_after_stream_holds_a_bounded_number(small):
    small.built()
    held = [open_stream(small) for _ in range(2)]
    try:
        assert all(s.readline() == b"retry: 500\n" for s in held)
        refused = open_stream(small)  # the third: told to ask again later, and ended
        assert refused.read() == b"retry: 5000\n\n"
        assert small.get("/api/state")[0] == 200
    finally:
        for stream in held:
            stream.close()
    # a closed stream gives its place back (at its next keep-alive line)
    while True:
        again = open_stream(small)
        first = again.readline()
        again.close()
        if first == b"retry: 500\n":
            break


def snapshot(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_no_request_writes_or_deletes_a_file(studio):
    studio.built()
    project = studio.session.target.data_file.parent
    before = snapshot(project)
    token = studio.session.token
    for method in ("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "MKCOL", "MOVE", "COPY"):
        for target in ("/", "/game.yaml", "/output/game/game.pdf", "/api/state", "/api/build",
                       "/static/studio.js", "/picture/../game.yaml", "/faces/card.yaml"):
            body = "name: hacked"
            get_raw(studio, f"{target}?token={token}", method=method,
                    extra=f"Content-Length: {len(body)}\r\nDestination: /x\r\n\r\n{body}")
    assert studio.get("/api/state")[0] == 200
    assert snapshot(project) == before


def test_sigterm_stops_pnp_serve_cleanly_and_removes_its_chart_folder(tmp_path):
    """A real ``pnp serve`` process: SIGTERM (``kill``, a service manager) ends it as Ctrl-C
    does, exit 143, and its folder in the temporary folder is gone, charts and all."""
    temp = tmp_path / "temp"
    temp.mkdir()
    with pnp_serve(starter(tmp_path), TMPDIR=str(temp)) as (child, _, printed):
        folders = list(temp.glob("pnp-serve-*"))
        assert len(folders) == 1
        (folders[0] / "chart-0.png").write_bytes(b"a chart")  # as a simulation leaves them
        child.send_signal(signal.SIGTERM)
        rest, _ = child.communicate(timeout=PATIENCE_S)
        assert child.returncode == 143 and "stopped serving" in rest
        assert "Traceback" not in printed + rest
        assert not folders[0].exists() and list(temp.glob("pnp-serve-*")) == []


# -- from a hostile project ----------------------------------------------------------------
def test_a_lone_surrogate_in_a_card_name_leaves_the_state_readable(tmp_path):
    project = starter(tmp_path)
    edit(project / "game.yaml", "{name: Dawn,", '{name: "Da\\ud800wn",')
    running = Running(project, BuildOptions(out_dir=project / "output"))
    try:
        state = running.built()  # parsed here as the page's JSON.parse reads it
        assert state["drawing"] is not None
        assert piece_key("deck", "Da\ud800wn") in state["drawing"]["pieces"]
        pages, faces = pictures(state)
        assert all(running.get(f"/picture/{name}.png")[0] == 200 for name in pages + faces)
    finally:
        running.stop()


def test_a_face_slow_to_draw_holds_up_neither_the_state_nor_the_pictures_already_made(studio,
                                                                                    monkeypatch):
    state = studio.built()
    _, faces = pictures(state)
    assert studio.get(f"/picture/{faces[0]}.png")[0] == 200  # one made before
    table = studio.session.studio.pictures
    drawing, free = threading.Event(), threading.Event()
    real = table.faces.image

    def slow(face: Any, *args: Any, **kwargs: Any) -> Any:
        drawing.set()
        free.wait(PATIENCE_S)
        return real(face, *args, **kwargs)

    monkeypatch.setattr(table.faces, "image", slow)
    waiting: list[int] = []
    slow_one = threading.Thread(
        target=lambda: waiting.append(studio.get(f"/picture/{faces[1]}.png")[0]), daemon=True)
    slow_one.start()
    try:
        assert drawing.wait(PATIENCE_S)  # the slow face is being drawn...
        assert studio.get("/api/state")[0] == 200  # ...while the state,
        assert studio.get(f"/picture/{faces[0]}.png")[0] == 200  # a picture made before,
        first = open_stream(studio)  # the event stream,
        assert first.readline() == b"retry: 500\n"
        first.close()
        # and the builder naming the next drawing's pictures are answered at once
        named = threading.Thread(target=studio.session.studio.pictures.add_face,
                                 args=(table.recipes[faces[0]].face,
                                       table.recipes[faces[0]].resources), daemon=True)
        named.start()
        named.join(PATIENCE_S)
        assert not named.is_alive()
        assert waiting == []  # still drawing
    finally:
        free.set()
        slow_one.join(PATIENCE_S)
    assert waiting == [200]


def test_the_pictures_kept_are_bounded_by_bytes(studio):
    state = studio.built()
    pages, faces = pictures(state)
    table = studio.session.studio.pictures
    table.max_bytes = 1  # the latest one alone is kept
    for name in pages[:3] + faces[:3]:
        assert studio.get(f"/picture/{name}.png")[0] == 200
    assert len(table.made) == 1 and table.held == len(next(iter(table.made.values())))


HOSTILE = "<img src=x onerror=window.pwned=1>"
SCRIPT = "</script><script>window.pwned=2</script>"


def hostile_project(tmp_path: Path) -> Path:
    project = starter(tmp_path)
    data = project / "game.yaml"
    edit(data, "title: Game", f"title: '{SCRIPT}\u2028{HOSTILE}'")
    edit(data, "{name: Dawn,", f"{{name: '{HOSTILE}',")
    edit(data, "{name: Morning,", "{name: 'javascript:window.pwned=3',")
    edit(data, "    name: Cards", f"    name: '<b id=injected>{'x' * 50}</b>'")
    edit(data, "  - name: 18 cards in the deck", f"  - name: '{HOSTILE} {SCRIPT}'")
    return project


def test_hostile_text_reaches_the_state_as_text(tmp_path):
    project = hostile_project(tmp_path)
    running = Running(project, BuildOptions(out_dir=project / "output"))
    try:
        state = running.built()
        assert state["title"].startswith(SCRIPT)
        assert piece_key("deck", HOSTILE) in state["drawing"]["pieces"]
        assert any(row["check"].startswith(HOSTILE) for row in state["report"])
        status, body = running.get("/")
        assert status == 200 and b"pwned" not in body  # the page holds no data, only the token
        answer = get_raw(running, f"/api/state?token={running.session.token}")
        head, _, body = answer.partition(b"\r\n\r\n")
        assert b"Content-Type: application/json" in head and b"nosniff" in head  # data only
        assert b"\\u2028" in body and "\u2028".encode() not in body  # escaped, ASCII
        assert json.loads(running.get("/api/state")[1])["title"] == state["title"]
    finally:
        running.stop()


@needs_browser
def test_hostile_text_in_a_browser_stays_text_everywhere(tmp_path):
    from selenium.webdriver.common.by import By

    project = hostile_project(tmp_path)
    running = Running(project, BuildOptions(out_dir=project / "output"))
    driver = browser()
    try:
        running.built()
        driver.get(running.session.url)
        assert wait_js(driver, LOADED)
        injected = ("return [window.pwned, document.querySelectorAll('b, script:not([src]), "
                    "#injected').length, Array.from(document.images).filter(i => "
                    "!/\\/(picture|chart)\\//.test(new URL(i.src).pathname)).length, "
                    "document.scripts.length]")
        assert driver.execute_script(injected) == [None, 0, 0, 1]
        assert driver.title == f"{SCRIPT}\u2028{HOSTILE} · pnp studio"
        assert driver.find_element(By.ID, "title").text.startswith(SCRIPT)
        driver.find_element(By.CSS_SELECTOR, '.tab[data-view="faces"]').click()
        assert "<b id=injected>" in driver.find_element(By.CSS_SELECTOR, ".component h2").text
        driver.find_element(By.CSS_SELECTOR, '.tab[data-view="sheets"]').click()
        driver.execute_script("document.querySelector(`.piece[data-key=\"${arguments[0]}\"]`)"
                              ".click()", piece_key("deck", HOSTILE))
        assert driver.find_element(By.ID, "details-title").text == HOSTILE
        driver.find_element(By.CSS_SELECTOR, '.tab[data-view="report"]').click()
        assert HOSTILE in driver.find_element(By.ID, "report-rows").text
        # a broken save whose error quotes the hostile text: shown as text too
        edit(project / "game.yaml", f"{{name: '{HOSTILE}', suit: sun, value: 1}}",
             f"{{name: '{HOSTILE}', suit: sun, value: '{SCRIPT}'}}")
        assert wait_js(driver, "return !document.getElementById('error').hidden")
        shot(driver, "hostile-error")
        assert driver.execute_script(injected) == [None, 0, 0, 1]
        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        assert errors == []  # nothing tried to run (a blocked inline script is SEVERE)
    finally:
        driver.quit()
        running.stop()
