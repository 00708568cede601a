"""The players' web server (aiohttp), in a thread of its own with its own event loop: it never runs on the window's
thread and never touches the session. It serves the page's files, each side's view (``GET /api/state``) and map
(``GET /api/map.glb``), and a WebSocket (``/ws``) that pushes the side's numbered updates and takes its messages.

Every route that says anything about the scene wants a join token: none is 401, a wrong one 403, and neither says
more. Messages are size-limited (aiohttp's max_msg_size), rate-limited per connection (a token bucket), checked
(engine/serve/messages.py) and handed to the table's thread; the answers come back on the same connection.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import itertools
import json
import threading
import time
from importlib import resources
from pathlib import Path
from typing import Callable

from aiohttp import WSMsgType, web

from engine.errors import AerieError
from engine.serve import messages as M

STATIC = Path(str(resources.files("engine.serve").joinpath("static")))    # in the package (the wheel ships it)
RATE = 20.0               # messages a second a connection may send on average
BURST = 40                # and at once
STRIKES = 200             # messages over the rate before the connection is closed
MAX_CONNS = 64            # WebSocket connections per side
QUEUE = 4096              # updates waiting on one connection before it is dropped (the page reconnects)
IMPORTMAP = ('{"imports": {"three": "/static/three/three.module.min.js", '
             '"three/addons/": "/static/three/jsm/"}}')


def _page() -> tuple[str, str]:
    """The join page with its import map, and the CSP hash of that inline map (the one inline script)."""
    html = (STATIC / "index.html").read_text(encoding="utf-8").replace("%IMPORTMAP%", IMPORTMAP)
    digest = base64.b64encode(hashlib.sha256(IMPORTMAP.encode()).digest()).decode()
    return html, f"'sha256-{digest}'"


class Conn:
    """One WebSocket of one side: its queue of updates, the last number sent, its rate bucket."""
    ids = itertools.count(1)

    def __init__(self, side: str, ws: web.WebSocketResponse) -> None:
        self.id = next(Conn.ids)
        self.side = side
        self.ws = ws
        self.queue: asyncio.Queue = asyncio.Queue(maxsize=QUEUE)
        self.last = 0
        self.tokens = float(BURST)
        self.t = time.monotonic()
        self.strikes = 0

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(float(BURST), self.tokens + (now - self.t) * RATE)
        self.t = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        self.strikes += 1
        return False


class Server:
    def __init__(self, table, host: str = "127.0.0.1", port: int = 8765) -> None:
        self.table = table
        self.host, self.port = host, port
        self.loop: asyncio.AbstractEventLoop | None = None
        self.thread: threading.Thread | None = None
        self.conns: dict[str, set[Conn]] = {s: set() for s in table.sides}
        self.by_id: dict[int, Conn] = {}
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._stop: asyncio.Event | None = None
        self.page, self.csp_hash = _page()
        self.sent = 0
        self.on_stop: Callable[[], None] | None = None       # what else stops with the server (the publisher)
        table.on_update = self._update_threadsafe
        table.on_reply = self._reply_threadsafe

    # -- the app --------------------------------------------------------------------------------------------------
    def app(self) -> web.Application:
        app = web.Application(client_max_size=M.MAX_BYTES, middlewares=[self._headers])
        app.router.add_get("/", self._root)
        app.router.add_get("/join/{token}", self._join)
        app.router.add_get("/api/state", self._state)
        app.router.add_get("/api/map.glb", self._glb)
        app.router.add_get("/ws", self._ws)
        app.router.add_static("/static/", STATIC, follow_symlinks=False, show_index=False)
        return app

    @web.middleware
    async def _headers(self, request, handler):
        try:
            resp = await handler(request)
        except web.HTTPException as e:
            self._secure(e.headers)
            raise
        self._secure(resp.headers)
        return resp

    @staticmethod
    def _secure(headers) -> None:
        headers.setdefault("X-Content-Type-Options", "nosniff")
        headers.setdefault("Referrer-Policy", "no-referrer")      # the token is in the page's address
        headers.setdefault("Cache-Control", "no-store")
        headers.setdefault("X-Frame-Options", "DENY")

    def _side(self, request, token: str | None) -> str:
        if not token:
            raise web.HTTPUnauthorized(text="a join token is needed (the link the game master's table printed)\n")
        side = self.table.side_of(token)
        if side is None:
            raise web.HTTPForbidden(text="this join token is not valid for this table\n")
        return side

    async def _root(self, request):
        raise web.HTTPUnauthorized(text="open the join link the game master's table printed\n")

    async def _join(self, request):
        self._side(request, request.match_info["token"])
        csp = (f"default-src 'self'; script-src 'self' {self.csp_hash}; connect-src 'self' ws: wss:; "
               "img-src 'self' data: blob:; style-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'")
        return web.Response(text=self.page, content_type="text/html", headers={"Content-Security-Policy": csp})

    async def _state(self, request):
        side = self._side(request, request.query.get("token"))
        got = self.table.latest_of(side)
        if got is None:
            raise web.HTTPServiceUnavailable(text="the table has not published yet\n")
        return web.Response(text=got[1], content_type="application/json")

    async def _glb(self, request):
        self._side(request, request.query.get("token"))
        return web.Response(body=self.table.glb, content_type="model/gltf-binary")

    async def _ws(self, request):
        side = self._side(request, request.query.get("token"))
        try:
            since = int(request.query.get("since", "0"))
        except ValueError:
            raise web.HTTPBadRequest(text="since: a whole number\n") from None
        if len(self.conns[side]) >= MAX_CONNS:
            raise web.HTTPTooManyRequests(text="too many pages of this side are connected\n")
        ws = web.WebSocketResponse(max_msg_size=M.MAX_BYTES, heartbeat=20.0, compress=False)
        await ws.prepare(request)
        c = Conn(side, ws)
        with self.table.lock:                      # catch-up and registration together: nothing missed, nothing twice
            backlog = self.table.since(side, since)
            self.conns[side].add(c)
            self.by_id[c.id] = c
        for item in backlog:
            c.queue.put_nowait(item)
        sender = asyncio.ensure_future(self._send_loop(c))
        try:
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    await self._receive(c, msg.data)
                elif msg.type == WSMsgType.BINARY:
                    await self._error_to(c, "message: text (JSON) only")
                elif msg.type == WSMsgType.ERROR:
                    break
                if c.strikes > STRIKES:
                    await ws.close(code=1008, message=b"too many messages")
                    break
        finally:
            sender.cancel()
            self.conns[side].discard(c)
            self.by_id.pop(c.id, None)
        return ws

    async def _receive(self, c: Conn, data: str) -> None:
        if not c.allow():
            await self._error_to(c, f"too many messages: at most {RATE:g} a second")
            return
        try:
            msg = M.parse(data)
        except M.BadMessage as e:
            await self._error_to(c, str(e))
            return
        self.table.submit(c.side, c.id, msg)

    async def _error_to(self, c: Conn, text: str) -> None:
        if not c.ws.closed:
            await c.ws.send_str(json.dumps({"type": "error", "error": text}))

    async def _send_loop(self, c: Conn) -> None:
        while True:
            item = await c.queue.get()
            if isinstance(item, tuple):
                n, text = item
                if n <= c.last:
                    continue
                c.last = n
            else:
                text = json.dumps(item)
            if c.ws.closed:
                return
            await c.ws.send_str(text)
            self.sent += 1

    # -- from the table's thread -------------------------------------------------------------------------------------
    def _update_threadsafe(self, side: str, seq: int, text: str) -> None:
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self._deliver, side, (seq, text))

    def _reply_threadsafe(self, conn_id, msg: dict) -> None:
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self._deliver_one, conn_id, msg)

    def _deliver(self, side: str, item) -> None:
        for c in list(self.conns.get(side, ())):
            self._put(c, item)

    def _deliver_one(self, conn_id, msg: dict) -> None:
        c = self.by_id.get(conn_id)
        if c is not None:
            self._put(c, msg)

    def _put(self, c: Conn, item) -> None:
        try:
            c.queue.put_nowait(item)
        except asyncio.QueueFull:          # a page that cannot keep up is dropped; it reconnects and catches up
            self.conns[c.side].discard(c)
            asyncio.ensure_future(c.ws.close(code=1013, message=b"too far behind"))

    # -- the thread --------------------------------------------------------------------------------------------------
    def start(self, timeout: float = 10.0) -> tuple[str, int]:
        """Start serving in a thread of its own; (host, port) once listening (port 0: the one the system gave)."""
        self.thread = threading.Thread(target=self._run, name="aerie-serve", daemon=True)
        self.thread.start()
        if not self._ready.wait(timeout):
            raise AerieError(f"--serve {self.host}:{self.port}: the server did not start in {timeout:g} s")
        if self._error is not None:
            raise AerieError(f"--serve {self.host}:{self.port}: cannot listen there: {self._error}")
        return self.host, self.port

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        self.loop = loop
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(self._main())
        except BaseException as e:   # noqa: BLE001 - reported by start()
            self._error = e
            self._ready.set()
        finally:
            loop.close()

    async def _main(self) -> None:
        self._stop = asyncio.Event()
        try:
            runner = web.AppRunner(self.app(), access_log=None, handle_signals=False, shutdown_timeout=1.0)
        except TypeError:        # an aiohttp before the runner took shutdown_timeout: its default (the pages close)
            runner = web.AppRunner(self.app(), access_log=None, handle_signals=False)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.port)
        try:
            await site.start()
        except OSError as e:
            await runner.cleanup()
            self._error = OSError(e.strerror or str(e))
            self._ready.set()
            return
        server = getattr(site, "_server", None)
        socks = getattr(server, "sockets", None) or []
        if socks:
            self.port = int(socks[0].getsockname()[1])
        self._ready.set()
        # the latest views of every side are already published: nothing to send until a page connects
        await self._stop.wait()
        for cs in self.conns.values():
            for c in list(cs):
                await c.ws.close(code=1001, message=b"the table closed")
        await runner.cleanup()

    def stop(self) -> None:
        if self.on_stop is not None:
            self.on_stop()
        if self.loop is not None and self._stop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self._stop.set)
        if self.thread is not None:
            self.thread.join(5.0)
