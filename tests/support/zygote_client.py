"""The client of the tests' CLI fork server (tests/support/zygote.py): one server per test process, started at the
first run and ended with the process."""

from __future__ import annotations

import atexit
import io
import json
import os
import selectors
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

#: keys pytest changes from test to test: not the CLI's environment
_IGNORED = ("PYTEST_CURRENT_TEST",)


class _Server:
    def __init__(self, cwd: str, env: dict):
        self.env = {k: v for k, v in env.items() if k not in _IGNORED}
        mine, theirs = socket.socketpair()
        self.proc = subprocess.Popen([sys.executable, str(Path(__file__).with_name("zygote.py")), str(theirs.fileno())],
                                     pass_fds=(theirs.fileno(),), cwd=cwd, env=env, stdin=subprocess.DEVNULL)
        theirs.close()
        self.sock = mine
        self.lines = self.sock.makefile("rb")

    def usable(self, env: dict) -> bool:
        return self.proc.poll() is None and {k: v for k, v in env.items() if k not in _IGNORED} == self.env

    def close(self) -> None:
        try:
            self.sock.close()
            self.proc.wait(5)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()


_server: _Server | None = None


def _get(cwd: str, env: dict) -> _Server | None:
    global _server
    if _server is None:
        _server = _Server(str(Path(__file__).resolve().parents[2]), env)
        atexit.register(_server.close)
    return _server if _server.usable(env) else None


def _text(data: bytes) -> str:
    # what subprocess.run(text=True) gives: the locale's encoding, universal newlines
    return io.TextIOWrapper(io.BytesIO(data)).read()


def forked_run(argv: list[str], cwd: str, env: dict, timeout: float) -> subprocess.CompletedProcess | None:
    """The command run in a child of the server, or None when no server can run it (then the caller starts a fresh
    interpreter)."""
    server = _get(cwd, env)
    if server is None:
        return None
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    null = os.open(os.devnull, os.O_RDONLY)
    try:
        socket.send_fds(server.sock, [json.dumps({"args": argv[3:], "cwd": cwd, "env": env,
                                                  "argv0": argv[0]}).encode()], [null, out_w, err_w])
    finally:
        for fd in (null, out_w, err_w):
            os.close(fd)
    pid = json.loads(server.lines.readline())["pid"]
    got = {out_r: bytearray(), err_r: bytearray()}
    sel = selectors.DefaultSelector()
    for fd in got:
        sel.register(fd, selectors.EVENT_READ)
    end = time.monotonic() + timeout
    try:
        while sel.get_map():
            left = end - time.monotonic()
            if left <= 0:
                os.kill(pid, signal.SIGKILL)
                server.lines.readline()
                raise subprocess.TimeoutExpired(argv, timeout, bytes(got[out_r]), bytes(got[err_r]))
            for key, _ in sel.select(left):
                chunk = os.read(key.fd, 1 << 16)
                if chunk:
                    got[key.fd] += chunk
                else:
                    sel.unregister(key.fd)
    finally:
        sel.close()
        os.close(out_r)
        os.close(err_r)
    status = json.loads(server.lines.readline())["status"]
    return subprocess.CompletedProcess(argv, status, _text(bytes(got[out_r])), _text(bytes(got[err_r])))


# -- the windows' server: ``aerie play`` processes that run beside the test --------------------------------------
class ForkedProcess:
    """What the window tests use of subprocess.Popen, for a child of the windows' server."""

    def __init__(self, server: "_WindowServer", pid: int, args: list[str]):
        self.server, self.pid, self.args = server, pid, args

    @property
    def returncode(self) -> int | None:
        self.server.drain()
        return self.server.exits.get(self.pid)

    def poll(self) -> int | None:
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        end = None if timeout is None else time.monotonic() + timeout
        while (rc := self.poll()) is None:
            if end is not None and timeout is not None and time.monotonic() > end:
                raise subprocess.TimeoutExpired(self.args, timeout)
            time.sleep(0.02)
        return rc

    def send_signal(self, sig: int) -> None:
        if self.poll() is None:
            try:
                os.kill(self.pid, sig)
            except ProcessLookupError:
                pass

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


class _WindowServer(_Server):
    def __init__(self, cwd: str, env: dict):
        self.env = {k: v for k, v in env.items() if k not in _IGNORED}
        mine, theirs = socket.socketpair()
        self.proc = subprocess.Popen([sys.executable, str(Path(__file__).with_name("zygote.py")), str(theirs.fileno()),
                                      "windows"], pass_fds=(theirs.fileno(),), cwd=cwd, env=env,
                                     stdin=subprocess.DEVNULL)
        theirs.close()
        self.sock = mine
        self.buf = b""
        self.exits: dict[int, int] = {}
        self.pids: list[int] = []

    def drain(self, block: bool = False) -> None:
        self.sock.setblocking(block)
        try:
            chunk = self.sock.recv(1 << 16)
        except BlockingIOError:
            chunk = b""
        finally:
            self.sock.setblocking(True)
        if block and not chunk:
            raise OSError("the windows' server ended")
        self.buf += chunk
        while b"\n" in self.buf:
            line, self.buf = self.buf.split(b"\n", 1)
            m = json.loads(line)
            if "exit" in m:
                self.exits[m["exit"]] = m["status"]
            else:
                self.pids.append(m["pid"])

    def start(self, argv: list[str], cwd: str, env: dict, out_fd: int) -> ForkedProcess:
        null = os.open(os.devnull, os.O_RDONLY)
        try:
            socket.send_fds(self.sock, [json.dumps({"args": argv[3:], "cwd": cwd, "env": env,
                                                    "argv0": argv[0]}).encode()], [null, out_fd, out_fd])
        finally:
            os.close(null)
        while not self.pids:
            self.drain(block=True)
        return ForkedProcess(self, self.pids.pop(0), argv)


_windows: _WindowServer | None = None


def popen_window(argv: list[str], cwd: str, env: dict, out_fd: int) -> ForkedProcess | subprocess.Popen:
    """``aerie play`` forked from the windows' server (its imports done: pyglet, moderngl, the window, the rules),
    or a fresh interpreter where the server cannot run it (AERIE_TEST_FRESH=1, another environment)."""
    global _windows
    base = {k: v for k, v in os.environ.items() if k not in _IGNORED}
    if os.environ.get("AERIE_TEST_FRESH") != "1":
        if _windows is None:
            _windows = _WindowServer(str(Path(__file__).resolve().parents[2]), dict(os.environ))
            atexit.register(_windows.close)
        if _windows.env == base and _windows.proc.poll() is None:
            return _windows.start(argv, cwd, env, out_fd)
    return subprocess.Popen(argv, cwd=cwd, env=env, stdout=out_fd, stderr=subprocess.STDOUT)
