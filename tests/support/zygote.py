"""A fork server for the tests' CLI runs (``run_aerie`` in tests/conftest.py).

The suite runs the real CLI a few hundred times to check exit codes, one-line errors and written files. Each run was
a fresh ``python -m engine``: an interpreter, then engine, numpy and the rules imported again -- about 0.35 s of CPU
before the command does anything, most of the CPU of the CLI tests. This server imports them once and forks a child
per run: the child is still a process of its own (its own exit status, its stdout and stderr on real pipes, killed on
a timeout, files written or not as the command leaves them), started from the state ``python -m engine`` reaches
after its imports, with the run's argv, working folder and environment.

What a forked child does not get that a fresh interpreter would: a hash seed of its own (every child of one server
shares the server's, so two runs compared within one test see the same set order: such a test asks for
``fresh=True``) and import-time reads of the environment (the client falls back to a fresh interpreter when the
environment differs from the server's). ``AERIE_TEST_FRESH=1`` turns the server off.

Protocol over a Unix socket pair: the client sends one JSON request (args, cwd, env) with three file descriptors
(stdin, stdout, stderr); the server answers ``{"pid": N}`` when the child is started, then ``{"status": S}``.
"""

from __future__ import annotations

import json
import os
import random
import socket
import sys


def _child(req: dict, fds: list[int]) -> int | str | None:
    for i, fd in enumerate(fds):
        os.dup2(fd, i)
        os.close(fd)
    os.chdir(req["cwd"])
    os.environ.clear()
    os.environ.update(req["env"])
    sys.argv = [req["argv0"], *req["args"]]
    random.seed()                     # a fresh interpreter seeds from the system; a fork would share the server's
    import numpy as np

    np.random.seed()
    from engine.cli import main

    try:
        return main()                 # as engine/__main__.py calls it: the arguments from sys.argv
    except SystemExit as e:           # argparse's usage errors and --help: SystemExit's code, as the interpreter takes it
        return e.code


def _fork_request(sock: socket.socket, *closing) -> int | None:
    """Read one request (its arguments, environment and the caller's stdio as fds) and fork a child that runs it;
    answer ``{"pid": N}`` and return N, or None once the socket is closed. The child closes the server's ``sock``
    and ``closing`` and never returns."""
    try:
        msg, fds, _flags, _addr = socket.recv_fds(sock, 1 << 20, 3)
    except OSError:
        return None
    if not msg:
        return None
    req = json.loads(msg)
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        for c in closing:
            c.close()
        sock.close()
        # the exit goes through the interpreter's own shutdown (atexit handlers, buffered output flushed), as
        # `raise SystemExit(main())` does in engine/__main__.py
        raise SystemExit(_child(req, fds))
    for fd in fds:
        os.close(fd)
    sock.sendall(json.dumps({"pid": pid}).encode() + b"\n")
    return pid


def serve(sock: socket.socket) -> None:
    # what `python -m engine` imports for most commands, once (no GL: a context must not cross a fork)
    import numpy  # noqa: F401
    import engine.cli  # noqa: F401
    import engine.scene.load  # noqa: F401
    import engine.rules.session  # noqa: F401
    from engine.rules import registry

    registry.names()                  # every ruleset package (and AERIE_RULESETS' test rulesets) imported
    while True:
        pid = _fork_request(sock)
        if pid is None:
            return
        _, status = os.waitpid(pid, 0)
        sock.sendall(json.dumps({"status": os.waitstatus_to_exitcode(status)}).encode() + b"\n")


def serve_windows(sock: socket.socket) -> None:
    """The windows' server (``aerie play`` for the window tests): children run side by side and end when they end;
    the server answers ``{"pid": N}`` for each request and ``{"exit": N, "status": S}`` once it has reaped N."""
    import selectors

    import pyglet

    pyglet.options["shadow_window"] = False       # as cmd_play sets them before its import: no GL context, no
    pyglet.options["debug_gl"] = False            # display opened before a fork
    # the libraries and the CLI, not engine.app (a twentieth of the imports' time): it reads settings from the
    # environment as it loads (AERIE_ANIM_S, AERIE_OUTLOOK_RUNS), which each test's window gives its own
    import moderngl  # noqa: F401
    import numpy  # noqa: F401
    import pyglet.gl  # noqa: F401
    import pyglet.window  # noqa: F401
    import trimesh  # noqa: F401
    from PIL import Image, ImageDraw, ImageFont  # noqa: F401

    import engine.cli
    import engine.scene.load  # noqa: F401
    from engine.rules import registry

    engine.cli.build_parser()
    registry.names()
    assert not any(m.startswith("engine.app") for m in sys.modules), "engine.app imported before the fork"
    sel = selectors.DefaultSelector()
    sel.register(sock, selectors.EVENT_READ)
    children: set[int] = set()
    while True:
        for pid in list(children):
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                children.discard(pid)
                sock.sendall(json.dumps({"exit": pid, "status": os.waitstatus_to_exitcode(status)}).encode() + b"\n")
        if not sel.select(0.05):
            continue
        child = _fork_request(sock, sel)
        if child is None:
            return
        children.add(child)


if __name__ == "__main__":
    (serve_windows if sys.argv[2:] == ["windows"] else serve)(socket.socket(fileno=int(sys.argv[1])))
