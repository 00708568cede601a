"""Players at the table on their own screens (``aerie play SCENE --serve [HOST:]PORT``, docs/players.md): a web
page per side with a 3D view of what that side sees, served by the GM's table.

- :mod:`engine.serve.view`: what a side is sent (the one player-view filter, by whitelist);
- :mod:`engine.serve.messages`: what a page may send, checked;
- :mod:`engine.serve.table`: join tokens, the pages' messages stepped on the table's thread, numbered updates;
- :mod:`engine.serve.server`: the aiohttp server in its own thread and event loop;
- :class:`Headless`: the same without a window (a thread that pumps the table), for tools and tests.

The ``serve`` extra installs aiohttp (and segno for the QR code); a missing one is one line (engine/extras.py).
"""

from __future__ import annotations

import threading
from concurrent.futures import Future
from typing import Any, Callable

from engine.errors import AerieError

DEFAULT_HOST, DEFAULT_PORT = "127.0.0.1", 8765


def require() -> None:
    from engine.extras import require as need

    need("aiohttp", what="aerie play --serve")


def parse_address(text: str) -> tuple[str, int]:
    """``[HOST:]PORT`` -> (host, port); an AerieError naming --serve when it is not one."""
    host, _, port = str(text).rpartition(":")
    host = host.strip("[]") or DEFAULT_HOST
    try:
        n = int(port)
    except ValueError:
        raise AerieError(f"--serve {text!r}: [HOST:]PORT expected, e.g. 8765 or 0.0.0.0:8765") from None
    if not 0 <= n <= 65535:
        raise AerieError(f"--serve {text!r}: the port is 0..65535")
    return host, n


def open_warning(host: str) -> str | None:
    if host in ("0.0.0.0", "::", ""):
        return (f"warning: --serve {host}: the players' pages are open to every machine on this network "
                "(each still needs its side's join link)")
    return None


def qr_text(url: str) -> str:
    """The join link as a QR code in text (segno), for a terminal; '' when segno is not installed."""
    try:
        import io

        import segno
    except ImportError:
        return ""
    buf = io.StringIO()
    code = segno.make(url, error="m")
    try:
        code.terminal(out=buf, compact=True)      # half-height blocks: half the lines
    except TypeError:                             # a segno without compact
        code.terminal(out=buf)
    return buf.getvalue()


class Headless:
    """A table served without a window: one thread owns the controller, pumps the pages' messages and publishes
    after each change; :meth:`call` runs a function (a GM's step) on that thread."""

    def __init__(self, ctl, host: str = "127.0.0.1", port: int = 0, approval: bool = False, tick_s: float = 0.005):
        require()
        from engine.serve.server import Server
        from engine.serve.table import Table

        self.ctl = ctl
        self.table = Table(lambda: self.ctl, approval=approval)
        self.server = Server(self.table, host, port)
        self.tick_s = tick_s
        self.calls: list[tuple[Callable, tuple, Future]] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._run, name="aerie-table", daemon=True)

    def start(self) -> Headless:
        self.table.publish(force=True)
        self.host, self.port = self.server.start()
        self.thread.start()
        return self

    def url(self, side: str) -> str:
        t = next(t for t, s in self.table.tokens.items() if s == side)
        return f"http://{self.host}:{self.port}/join/{t}"

    def token(self, side: str) -> str:
        return next(t for t, s in self.table.tokens.items() if s == side)

    def call(self, fn: Callable, *a) -> Any:
        """Run ``fn(*a)`` on the table's thread and return its result (the table publishes after it)."""
        fut: Future = Future()
        with self._lock:
            self.calls.append((fn, a, fut))
        return fut.result(30)

    def _run(self) -> None:
        while not self._stop.is_set():
            with self._lock:
                calls, self.calls = self.calls, []
            for fn, a, fut in calls:
                try:
                    fut.set_result(fn(*a))
                except BaseException as e:   # noqa: BLE001 - handed to the caller
                    fut.set_exception(e)
                self.table.publish()
            self.table.pump()
            self._stop.wait(self.tick_s)

    def stop(self) -> None:
        self._stop.set()
        self.thread.join(5)
        self.server.stop()
