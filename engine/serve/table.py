"""The GM's table as the players' pages reach it: one join token per side, the players' messages waiting for the
table's thread, and each side's view published after every change, numbered, with a history a page that lost its
connection catches up from.

Threads: the web server (engine/serve/server.py) only calls :meth:`Table.submit` (a thread-safe queue) and reads
the published views and history (under ``lock``); the session is read and changed only on the table's own thread
-- the window's, in its tick, or a headless driver's -- in :meth:`Table.pump` and :meth:`Table.publish`.
"""

from __future__ import annotations

import json
import queue
import secrets
import threading
from collections import deque
from typing import Any, Callable

from engine.serve import view as V

HISTORY = 2048                   # updates kept per side for a page that reconnects
TOKEN_BYTES = 16                 # 128 bits per side per run


def map_glb(scene) -> bytes:
    """The exporter's GLB of the map (engine/interop/gltf.py) without the characters: they are sent, each only to
    the sides that see it, as tokens."""
    from engine.interop.gltf import build_gltf_scene, with_buffer_view_targets

    import trimesh

    full, _ = build_gltf_scene(scene)
    out = trimesh.Scene()
    for name, geom in full.geometry.items():
        if not str(name).startswith("character_"):
            out.add_geometry(geom, node_name=name, geom_name=name)
    return with_buffer_view_targets(out.export(file_type="glb"))


def _apply_direct(fn, *a):
    return fn(*a)


class Table:
    def __init__(self, get_ctl: Callable[[], Any], sides: list[str] | None = None, approval: bool = False,
                 view_opts: Callable[[], tuple] | None = None, glb: bytes | None = None) -> None:
        self.get_ctl = get_ctl
        ctl = get_ctl()
        self.sides = list(sides or V.sides_of(ctl.session))
        self.tokens = {secrets.token_urlsafe(TOKEN_BYTES): s for s in self.sides}
        self.approval = approval                 # the GM approves each player's action first
        self.awaiting: list[tuple[str, dict]] = []
        self.view_opts = view_opts or (lambda: (False, frozenset()))
        self.inbox: queue.SimpleQueue = queue.SimpleQueue()
        self.lock = threading.Lock()
        self.seq = 0
        self.latest: dict[str, tuple[int, str]] = {}
        self.history: dict[str, deque] = {s: deque(maxlen=HISTORY) for s in self.sides}
        self.caches: dict[str, dict] = {s: {} for s in self.sides}
        self._key: tuple | None = None
        self.on_update: Callable[[str, int, str], None] | None = None     # the server's (called under no lock)
        self.on_reply: Callable[[Any, dict], None] | None = None
        self.glb = glb if glb is not None else map_glb(ctl.scene)
        self.steps_from_pages = 0

    # -- from the server's thread ----------------------------------------------------------------------------------
    def side_of(self, token: str | None) -> str | None:
        if not token:
            return None
        for t, s in self.tokens.items():
            if secrets.compare_digest(t.encode(), token.encode("utf-8", "replace")):
                return s
        return None

    def submit(self, side: str, conn, msg: dict) -> None:
        """A checked message (engine/serve/messages.py) from a page of ``side``, for the table's thread."""
        self.inbox.put((side, conn, msg))

    def latest_of(self, side: str) -> tuple[int, str] | None:
        with self.lock:
            return self.latest.get(side)

    def since(self, side: str, seq: int) -> list[tuple[int, str]]:
        """The updates of ``side`` after ``seq`` still held (a reconnecting page's catch-up); the latest alone when
        the page is further behind than the history. The caller holds ``lock``."""
        h = self.history[side]
        got = [(n, t) for n, t in h if n > seq]
        if h and got and got[0][0] != seq + 1 and h[0][0] > seq + 1:
            return [h[-1]]
        return got

    def join_lines(self, host: str, port: int) -> list[str]:
        return [f"join {s}: http://{host}:{port}/join/{t}" for t, s in self.tokens.items()]

    # -- on the table's thread ----------------------------------------------------------------------------------------
    def _reply(self, conn, msg: dict) -> None:
        if self.on_reply is not None and conn is not None:
            self.on_reply(conn, msg)

    def pump(self, apply: Callable = _apply_direct, limit: int = 32, publish: bool = True) -> int:
        """Handle the pages' waiting messages (at most ``limit``), each as a GM's click would be, then publish
        (``publish=False``: the caller publishes, e.g. from a thread of its own)."""
        n = 0
        while n < limit:
            try:
                side, conn, msg = self.inbox.get_nowait()
            except queue.Empty:
                break
            n += 1
            try:
                self._handle(side, conn, msg, apply)
            except Exception as e:   # noqa: BLE001 - a page's message never takes the table down
                self._reply(conn, {"type": "error", "error": f"the table could not do that ({type(e).__name__})"})
        if publish:
            self.publish()
        return n

    def _filter(self, side: str):
        ctl = self.get_ctl()
        reveal, hidden = self.view_opts()
        return V.side_filter(ctl, side, self.caches[side], reveal, hidden)

    def _check_actor(self, side: str, act: dict) -> str | None:
        ctl = self.get_ctl()
        a = ctl.session.state.actors.get(act["actor"])
        if a is None or a.side != side:
            return f"{act['actor']!r} is not one of your characters"
        if ctl.session.current != a.id:
            return "it is not your character's turn"
        if ctl.question is not None:
            return "the table waits for an answer to a question first"
        if not V.names_only_seen(ctl, act, self._filter(side)):
            return "that action is not possible now"
        return None

    def _handle(self, side: str, conn, msg: dict, apply: Callable) -> None:
        ctl = self.get_ctl()
        t = msg["type"]
        if t == "ping":
            self._reply(conn, {"type": "pong"})
            return
        if t == "answer":
            q = V.question_for(ctl, self._filter(side))
            if q is None or q["key"] != msg["key"] or msg["i"] >= len(q["options"]):
                self._reply(conn, {"type": "error", "error": "no such question open for your side"})
                return
            apply(ctl.answer, msg["i"])
            self._reply(conn, {"type": "ok", "for": "answer"})
            return
        act = msg["action"]
        why = self._check_actor(side, act)
        if why is not None:
            self._reply(conn, {"type": "error", "error": why})
            return
        if t == "preview":
            nums = V.preview_numbers(ctl, act)      # reads the session only (the caller holds it): no window step
            self._reply(conn, {"type": "preview", "action": act, "numbers": nums})
            return
        if self.approval:
            self.awaiting.append((side, act))
            ctl.say(f"side {side} asks: {act.get('actor')} {act.get('action')} (the GM approves)")
            self._reply(conn, {"type": "ok", "for": "act", "waiting": "the GM approves it first"})
            return
        self._step(side, conn, act, apply)

    def _step(self, side: str, conn, act: dict, apply: Callable) -> None:
        ctl = self.get_ctl()
        pf = self._filter(side)
        before = len(ctl.session.events)
        res = apply(ctl.step, act)
        ctl = self.get_ctl()
        if res is None and ctl.question is None and len(ctl.session.events) == before:
            text = ctl.message[0] if ctl.message[1] == "error" else "not possible now"
            text = V.scrub(text, []) if pf.text_ok(text) else "that action is not possible now"
            self._reply(conn, {"type": "error", "error": text})
            return
        self.steps_from_pages += 1
        self._reply(conn, {"type": "ok", "for": "act"})

    def approve(self, apply: Callable = _apply_direct) -> bool:
        """The GM approves the oldest waiting action: it is stepped now (if still legal)."""
        if not self.awaiting:
            return False
        side, act = self.awaiting.pop(0)
        if self._check_actor(side, act) is None:
            self._step(side, None, act, apply)
        return True

    def refuse(self) -> bool:
        if not self.awaiting:
            return False
        self.awaiting.pop(0)
        return True

    def key(self) -> tuple:
        """What the views depend on (cheap): the session, its events, the rules state, the open question, the GM's
        reveal and hidden characters."""
        ctl = self.get_ctl()
        s = ctl.session
        q = ctl.question_view()
        reveal, hidden = self.view_opts()
        return (id(s), len(s.events), ctl.state_version, None if q is None else (q["key"], q["side"]), reveal, hidden)

    def stale(self) -> bool:
        return self.key() != self._key

    def publish(self, force: bool = False) -> bool:
        """Each side's view, when the table changed since the last one: numbered, kept, handed to the server."""
        ctl = self.get_ctl()
        s = ctl.session
        reveal, hidden = self.view_opts()
        key = self.key()
        if key == self._key and not force:
            return False
        self._key = key
        out = []
        with self.lock:
            self.seq += 1
            seq = self.seq
        entries = V.log_entries(s)            # the log's lines once, each side's filter over them
        for side in self.sides:
            v = V.side_view(ctl, side, self.caches[side], reveal, hidden, entries)
            v["type"], v["seq"] = "state", seq
            text = json.dumps(v, separators=(",", ":"))
            with self.lock:
                self.latest[side] = (seq, text)
                self.history[side].append((seq, text))
            out.append((side, seq, text))
        if self.on_update is not None:
            for side, n, text in out:
                self.on_update(side, n, text)
        return True
