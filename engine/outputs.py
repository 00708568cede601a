"""Writing outputs whole or not at all: renders, videos, logs, saves.

Every file Aerie writes goes to a temporary file in the same folder (``.NAME.tmp-PID-N.EXT``: same file system,
same extension for encoders that pick the format from it), is flushed and ``fsync``-ed, and only then renamed over
the target (``os.replace``: atomic on POSIX). So a command killed at any moment (SIGKILL, power cut, a failed
step in ``aerie replay``) leaves either the previous file untouched or the complete new one; a temporary file may
remain after a SIGKILL and is never mistaken for the output.

Policy (documented in README.md): an existing output is replaced -- atomically, once the new one is complete --
except that an output may never be one of the same command's inputs (``aerie run s.toml --log s.toml`` is refused
before anything runs).
"""

from __future__ import annotations

import contextlib
import itertools
import os
from pathlib import Path

from engine.errors import AerieError

_counter = itertools.count()


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return a.resolve() == b.resolve()


def _is_input(p: Path, i) -> bool:
    """``p`` (an existing file) is the input ``i``. An input the system cannot look at (a name over 255 bytes)
    is not this output: its own command says so when it reads it, blaming that argument, not this one."""
    try:
        return Path(i).exists() and _same_file(p, Path(i))
    except (OSError, ValueError):
        return False


def check_output_path(path, exts=None, inputs=(), force: bool = True, what: str = "the output") -> Path:
    """Validate an output path before any work: extension, folder exists and is writable, not a folder, not one
    of ``inputs`` (same file, links resolved: give every file the command reads, ``engine.scene.scene_inputs``
    for a scene's); with ``force=False`` an existing file is refused too. A path the system refuses to look at (a
    name over 255 bytes) is one line too. ``what`` names the argument (``-o``, ``--log``): every line says it."""
    label = f"{what} {path}" if what.startswith("-") else str(path) if what == "the output" else f"{path} ({what})"
    try:
        return _check_output_path(path, exts, inputs, force, what, label)
    except OSError as e:
        raise AerieError(f"{label}: {e.strerror or e}") from None


def _check_output_path(path, exts, inputs, force: bool, what: str, label: str) -> Path:
    if "\x00" in str(path):
        raise AerieError(f"{label}: a path may not hold a NUL byte")
    p = Path(path)
    if exts and p.suffix.lower() not in exts:
        raise AerieError(f"{path}: {what} must end in {' or '.join(exts)}")
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.exists():
        raise AerieError(f"{label}: cannot write: the folder {parent} does not exist")
    if not parent.is_dir():
        raise AerieError(f"{label}: cannot write: {parent} is not a folder")
    if p.is_dir():
        raise AerieError(f"{label}: is a folder")
    for i in inputs:
        if i is not None and p.exists() and _is_input(p, i):
            raise AerieError(f"{label}: would overwrite an input of this command ({i}); write it elsewhere")
    if p.exists() and not p.is_file():
        raise AerieError(f"{label}: exists and is not a regular file")
    if p.exists() and not force:
        raise AerieError(f"{label}: already exists (give --force to replace it)")
    if not os.access(parent, os.W_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise AerieError(f"{label}: cannot write there (permission denied)")
    _probe(p, label)
    return p


def _probe(p: Path, path) -> None:
    """Make and remove the temporary file the output is written through: a folder that passes the permission test
    yet holds no new file (/proc, a read-only mount seen by root) is refused now, before any work, not after it
    (an encoder would print its own errors then)."""
    tmp = temp_path(p)
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o600)
    except OSError as e:
        raise AerieError(f"{path}: cannot write there: {e.strerror or e}") from None
    os.close(fd)
    _remove(tmp)


def temp_path(target: Path) -> Path:
    target = Path(target)
    # the stem cut short: a target name near the 255-byte limit still has a temporary name the system accepts
    stem = os.fsencode(target.stem)[:120].decode("utf-8", "ignore")
    return target.with_name(f".{stem}.tmp-{os.getpid()}-{next(_counter)}{target.suffix}")


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def commit(tmp: Path, target: Path) -> None:
    """fsync ``tmp`` and rename it over ``target`` (keeping the old file's permission bits when there is one)."""
    fd = os.open(tmp, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    try:
        os.chmod(tmp, os.stat(target).st_mode & 0o7777)
    except OSError:
        os.chmod(tmp, 0o666 & ~_umask())
    os.replace(tmp, target)
    _fsync_dir(target.parent if str(target.parent) else Path("."))


def _umask() -> int:
    m = os.umask(0)
    os.umask(m)
    return m


@contextlib.contextmanager
def atomic_path(target, what: str = "the output"):
    """``with atomic_path(out) as tmp: encoder.write(tmp)`` -- on a clean exit ``tmp`` replaces ``out``; on any
    exception (or if nothing was written) ``tmp`` is removed and ``out`` is left as it was."""
    target = Path(target)
    tmp = temp_path(target)
    try:
        yield tmp
        if not tmp.exists():
            raise AerieError(f"{target}: {what} was not written")
        commit(tmp, target)
    except OSError as e:
        _remove(tmp)
        raise AerieError(f"{target}: cannot write {what}: {e.strerror or e}") from None
    except BaseException:
        _remove(tmp)
        raise


def _remove(p: Path) -> None:
    try:
        os.unlink(p)
    except OSError:
        pass


def write_output(target, data: bytes, what: str = "the output") -> Path:
    """Write ``data`` to ``target`` atomically (temporary file, fsync, rename)."""
    target = Path(target)
    with atomic_path(target, what) as tmp:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
    return target


def write_text_output(target, text: str, what: str = "the output") -> Path:
    return write_output(target, text.encode("utf-8"), what)
