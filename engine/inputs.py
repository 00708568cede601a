"""Reading files a user names: regular files only, size capped before a byte is read, never a hang.

``read_bounded(path, cap, label)`` is the one way Aerie reads a scene, an actions file, a save, a log or a map:
it opens without blocking (a FIFO would otherwise wait for a writer forever), refuses anything that is not a
regular file (``/dev/zero``, a pipe, a socket, a folder), refuses a file over ``cap`` bytes from its size alone
(a 3 GiB ``.vox`` is never read) and still reads at most ``cap + 1`` bytes (a file growing meanwhile).
``check_file`` is the same test without the read, for files another library opens (a ``.glb`` model).
"""

from __future__ import annotations

import errno
import os
import stat

from engine.errors import AerieError

MiB = 1024 * 1024
SCENE_MAX_BYTES = 16 * MiB
ACTIONS_MAX_BYTES = 16 * MiB
SAVE_MAX_BYTES = 256 * MiB
VOX_MAX_BYTES = 256 * MiB        # a full 1024 x 1024 x 64 model as XYZI is 4 bytes a voxel
MODEL_MAX_BYTES = 64 * MiB


def _mib(n: int) -> str:
    return f"{n / MiB:g} MiB"


def _problem(st_mode: int) -> str | None:
    if stat.S_ISREG(st_mode):
        return None
    if stat.S_ISDIR(st_mode):
        return "is a folder, not a file"
    kind = ("a FIFO" if stat.S_ISFIFO(st_mode) else "a device" if stat.S_ISCHR(st_mode) or stat.S_ISBLK(st_mode)
            else "a socket" if stat.S_ISSOCK(st_mode) else "special")
    return f"is {kind}, not a regular file"


def _no_nul(path, label, error) -> None:
    if "\x00" in os.fsdecode(os.fspath(path)):
        raise error(f"{label}: a path may not hold a NUL byte")


def exists(path, label: str | None = None, error=AerieError) -> bool:
    """``Path.exists`` for a path a user gave: a name the system refuses to look at (a part over 255 bytes, too
    deep a path) is ``error(label: why)``, one line, not an ``OSError`` from deep inside a command."""
    label = label or os.fsdecode(path)
    _no_nul(path, label, error)
    try:
        os.stat(path)
    except FileNotFoundError:
        return False
    except OSError as e:
        if e.errno in (errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP):
            return False                 # what Path.exists says no to
        raise error(f"{label}: {e.strerror or e}") from None
    return True


def check_file(path, cap: int, label: str | None = None, error=AerieError) -> int:
    """The file's size when ``path`` is a regular file of at most ``cap`` bytes; else ``error(label: problem)``."""
    label = label or os.fsdecode(path)
    _no_nul(path, label, error)
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise error(f"{label}: no such file") from None
    except OSError as e:
        raise error(f"{label}: cannot read: {e.strerror or e}") from None
    bad = _problem(st.st_mode)
    if bad:
        raise error(f"{label}: {bad}")
    if st.st_size > cap:
        raise error(f"{label}: {_mib(st.st_size)} is over the {_mib(cap)} cap for this kind of file")
    return st.st_size


def read_bounded(path, cap: int, label: str | None = None, error=AerieError) -> bytes:
    """The bytes of a regular file of at most ``cap`` bytes, or ``error(label: problem)``: never blocks on a FIFO,
    never reads a device, never reads more than ``cap + 1`` bytes."""
    label = label or os.fsdecode(path)
    _no_nul(path, label, error)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise error(f"{label}: no such file") from None
    except IsADirectoryError:
        raise error(f"{label}: is a folder, not a file") from None
    except OSError as e:
        raise error(f"{label}: cannot read: {e.strerror or e}") from None
    try:
        st = os.fstat(fd)
        bad = _problem(st.st_mode)
        if bad:
            raise error(f"{label}: {bad}")
        if st.st_size > cap:
            raise error(f"{label}: {_mib(st.st_size)} is over the {_mib(cap)} cap for this kind of file")
        chunks, got = [], 0
        while got <= cap:
            try:
                b = os.read(fd, min(cap + 1 - got, 4 * MiB))
            except OSError as e:
                raise error(f"{label}: cannot read: {e.strerror or e}") from None
            if not b:
                break
            chunks.append(b)
            got += len(b)
        if got > cap:
            raise error(f"{label}: over the {_mib(cap)} cap for this kind of file")
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_text(path, cap: int, label: str | None = None, error=AerieError) -> str:
    label = label or os.fsdecode(path)
    data = read_bounded(path, cap, label, error)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise error(f"{label}: not UTF-8 text (byte {e.start})") from None


def contained(base, rel: str, cap: int, where: str, error=AerieError):
    """The one containment-and-size check for a file a scene names: ``rel`` is relative to ``base`` and, links
    resolved, stays inside it (no absolute path, no ``..`` out, no ``~``, no NUL), and is a regular file of at most
    ``cap`` bytes. Returns the resolved path or raises ``error(problem)``."""
    from pathlib import Path

    base = Path(base).resolve()
    if not isinstance(rel, str) or not rel or os.path.isabs(rel) or rel.startswith("~") or "\x00" in rel:
        raise error(f"asset path {rel!r} must be relative to {where}")
    try:
        target = (base / rel).resolve()
    except OSError as e:                 # a name over 255 bytes, say
        raise error(f"asset path {rel!r}: {e.strerror or e}") from None
    there = exists(target, f"asset path {rel!r}", error)
    if target != base and base not in target.parents:
        raise error(f"asset path {rel!r} leaves {where}")
    if not there:
        raise error(f"asset file {rel!r} does not exist")
    check_file(target, cap, f"asset file {rel!r}", error)
    return target


MODEL_NAME = r"[A-Za-z0-9][A-Za-z0-9_\-]{0,63}"


def model_file(models_dir, name: str):
    """``models_dir/<name>.glb`` when ``name`` is a plain model name and that file is a regular file under the
    size cap; else None (the caller draws its generic model)."""
    import re

    if not isinstance(name, str) or not re.fullmatch(MODEL_NAME, name):
        return None
    try:
        return contained(models_dir, f"{name}.glb", MODEL_MAX_BYTES, "the models folder")
    except AerieError:
        return None
