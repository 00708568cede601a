"""Errors a user can cause. The CLI prints them in one line and exits 2; nothing else escapes."""

import os


def one_line(text) -> str:
    """``text`` with every control character (a newline in a TOML key, a tab, an escape) written as its escape,
    so that an error naming user-supplied text stays one line on a terminal."""
    s = str(text)
    if s.isprintable():
        return s
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in s)


def display_path(path) -> str:
    """A file as a message names it: relative to the working folder when it lies inside it, else absolute
    (never "." or "../../...", which read worse than what the user typed)."""
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return str(path)
    if rel == "." or rel == ".." or rel.startswith(".." + os.sep):
        return os.path.abspath(path)
    return rel


class AerieError(Exception):
    """A user-facing error: bad scene, bad .vox, bad argument, illegal action. The message is always one line."""

    exit_code = 2

    def __init__(self, message: str):
        message = one_line(message)
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class SceneError(AerieError):
    """A scene file is invalid. The message names the file and the key path."""

    def __init__(self, file: str, path: str, problem: str):
        where = f"{file}: {path}: " if path else f"{file}: "
        super().__init__(where + problem)
        self.file = file
        self.path = path
        self.problem = problem


class VoxError(AerieError):
    """A MagicaVoxel file is truncated, hostile or unsupported."""
