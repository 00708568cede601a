"""``aerie play SCENE --serve [HOST:]PORT``: the players' server beside the GM's window, started and stopped with it.

The server runs in its own thread (engine/serve/server.py); the pages' actions are stepped in a pyglet clock
callback of its own on the window's thread, through the window's own path (``_apply_locked`` under the session
lock, as a GM's click: the step animates, the log follows), never waiting for the session (while the worker reads
it the callback tries again at the next tick); each side's view is made after a change by a publisher thread under
the same lock, off the window's thread.

F6 shows and hides the join links' QR codes over the window (engine/app/sections/joinqr.py). The GM's approval
(``--approve``): a player's action waits; Ctrl+Enter in the window takes the oldest waiting one,
Ctrl+Backspace refuses it (the message line says which is waiting).
"""

from __future__ import annotations

import sys
import threading

from engine.serve import open_warning, parse_address, qr_text, require


def cmd_play(args) -> int:
    """``aerie play``: the window (engine/app/commands.py), with the players' server when ``--serve`` is given (a
    bad address or a missing extra is one line before any window opens)."""
    from engine.app.commands import cmd_play as play

    serve = getattr(args, "serve", None)
    if serve is None:
        return play(args)
    parse_address(serve)
    require()
    return play(args, opened=lambda win: start(win, serve, bool(getattr(args, "approve", False))).stop)


def start(win, address: str, approval: bool = False, out=None):
    """Serve ``win``'s table at ``address``; prints the join lines; returns the server (stop it on close)."""
    import pyglet
    from pyglet.window import key

    require()
    from engine.serve.server import Server
    from engine.serve.table import Table

    out = out or sys.stdout
    host, port = parse_address(address)
    table = Table(lambda: win.ctl, approval=approval,
                  view_opts=lambda: (bool(win.vstate.reveal_hp), frozenset(win.vstate.hidden)))
    table.publish(force=True)
    server = Server(table, host, port)
    host, port = server.start()
    warn = open_warning(host)
    if warn:
        print(warn, file=out)
    shown = host if host not in ("0.0.0.0", "::", "") else _lan_address()
    lines = table.join_lines(shown, port)
    for line in lines:
        print(line, file=out)
        q = qr_text(line.split(": ", 1)[1])
        if q:
            print(q, file=out, end="")
    out.flush()
    win.serve_table, win.serve_server, win.serve_lines = table, server, lines
    win.serve_qr = True                   # the join codes shown at the start (F6 hides them)

    def apply(fn, *a):
        return win._apply_locked(fn, *a)

    publisher = Publisher(table, win.jobs.session_lock)

    def tick(dt):
        lock = win.jobs.session_lock
        if win.jobs.busy() or not lock.acquire(blocking=False):
            return                         # the worker reads the session: next tick
        try:
            table.pump(apply, publish=False)
            if table.stale():
                publisher.wake.set()       # the views are made off the window's thread
        finally:
            lock.release()

    def on_key_press(symbol, modifiers):
        # the join codes over the window; only in the main mode (the camera-path mode's F6 renders its video)
        if symbol == key.F6 and not modifiers & key.MOD_CTRL and len(win.modes.modes) == 1:
            win.serve_qr = not win.serve_qr
            win.changed()
            return pyglet.event.EVENT_HANDLED
        if not modifiers & key.MOD_CTRL or not table.approval:
            return None
        if symbol in (key.ENTER, key.RETURN) and table.awaiting:
            with win.jobs.session_lock:
                table.approve(apply)
            return pyglet.event.EVENT_HANDLED
        if symbol == key.BACKSPACE and table.awaiting:
            table.refuse()
            win.say("the player's action was refused")
            return pyglet.event.EVENT_HANDLED
        return None

    publisher.start()
    pyglet.clock.schedule_interval(tick, 1 / 60.0)
    win.push_handlers(on_key_press=on_key_press)
    win.serve_tick = tick
    win.say(f"serving the players' pages at http://{shown}:{port} ({len(lines)} join links printed)", toast=False)
    server.on_stop = publisher.stop
    return server


class Publisher(threading.Thread):
    """Makes each side's view after a change, in a thread of its own, under the session lock (as the window's
    worker reads the session): a step's frame does not wait for the sight lines of every side."""

    def __init__(self, table, lock) -> None:
        super().__init__(name="aerie-serve-publish", daemon=True)
        self.table, self.lock = table, lock
        self.wake = threading.Event()
        self._stop_ev = threading.Event()

    def run(self) -> None:
        while not self._stop_ev.is_set():
            self.wake.wait(0.5)
            self.wake.clear()
            if self._stop_ev.is_set():
                break
            with self.lock:
                try:
                    self.table.publish()
                except Exception as e:   # noqa: BLE001 - the pages miss an update, the table goes on
                    print(f"aerie play --serve: a view could not be made: {type(e).__name__}: {e}", file=sys.stderr)

    def stop(self) -> None:
        self._stop_ev.set()
        self.wake.set()
        self.join(2.0)


def _lan_address() -> str:
    """This machine's address on the local network (for the join links when serving on 0.0.0.0)."""
    import socket

    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))       # TEST-NET: nothing is sent, the system picks the outgoing interface
            return s.getsockname()[0]
    except OSError:
        return "127.0.0.1"
