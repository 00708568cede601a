"""Saving and opening: Ctrl+S (the save and, next to it, the event log in ``aerie run --log``'s format), the
unsaved work opening something else would drop, Ctrl+O's list of scenes and saves around."""

from __future__ import annotations

import os
from pathlib import Path


def save_path(scene) -> Path:
    return Path(os.environ.get("AERIE_SAVE", Path(scene.path).stem + ".save.json"))


def save_target(win) -> Path:
    """Where Ctrl+S writes: the name Ctrl+Shift+S chose, else the default save."""
    return Path(getattr(win, "save_to", None) or save_path(win.scene))


def save(win, path=None) -> None:
    """The saved game, and next to it the event log in ``aerie run --log``'s format (events, then the final
    state, one JSON object a line)."""
    from engine.outputs import check_output_path, write_text_output   # atomic, as every output
    from engine.rules.core import dumps
    from engine.scene import scene_inputs

    target = Path(path or save_target(win))
    log = target.with_suffix(".log.jsonl") if target.suffix == ".json" else Path(str(target) + ".log.jsonl")
    # neither may replace a file the game reads (AERIE_SAVE=map.vox, a save-as name that is the scene's): refused,
    # AerieError, before either is written
    for out, what in ((target, "the save"), (log, "the event log")):
        check_output_path(out, None, scene_inputs(win.ctl.scene), what=what)
    p = win.ctl.save(target)
    wrote(p)
    s = win.ctl.session
    write_text_output(log, "\n".join([dumps(e) for e in s.events] + [dumps(s.state.to_dict())]) + "\n", "the log")
    win.saved_actions = list(s.actions)
    win.say(f"saved {len(s.actions)} action(s) to {p} (event log: {log})")


def save_as(win, name: str) -> None:
    """Ctrl+Shift+S: save under a name of the GM's choosing (in the default save's folder; a bare name gets
    ``.save.json``); later Ctrl+S saves there too. A file that exists and that this program did not write is
    replaced only once the GM says yes."""
    name = name.strip()
    if not name or any(c in name for c in "\0"):
        win.say("save as: give a name", "error")
        return
    p = Path(name).expanduser()
    if not p.is_absolute() and p.parent == Path("."):
        p = save_path(win.scene).parent / p
    if not p.name.endswith(".json"):
        p = p.with_name(p.name + ".save.json")
    try:
        theirs = p.exists() and not ours(p) and os.path.realpath(p) != os.path.realpath(save_target(win))
    except (OSError, ValueError) as e:
        win.say(f"save as {p}: {getattr(e, 'strerror', None) or e}", "error")
        return
    if theirs:                 # another game's save (or any .json): the GM says so before it is replaced
        from engine.app.modes.prompts import YesNo

        win.modes.push(win.table, YesNo(f"{p} exists: replace it with this game? Y replaces it, N keeps it",
                                  lambda: _save_as(win, p)))
        return
    _save_as(win, p)


#: the files this program wrote (real paths): saves, and scenes the GM's line saved. Another file that exists is
#: not replaced without asking (Ctrl+Shift+S) or at all (``;save scene``, ``;start``)
WRITTEN: set[str] = set()


def wrote(path) -> None:
    WRITTEN.add(os.path.realpath(os.fsdecode(path)))


def ours(path) -> bool:
    return os.path.realpath(os.fsdecode(path)) in WRITTEN


def _save_as(win, p: Path) -> None:
    from engine.errors import AerieError

    try:
        save(win, p)
    except OSError as e:
        win.say(f"save as {p}: {e.strerror or e}", "error")
        return
    except AerieError as e:
        win.say(f"not saved: {e}", "error")
        return
    win.save_to = p


def unsaved(win) -> str:
    """What opening something else would throw away ("" when nothing)."""
    n = len(win.ctl.session.actions)
    saved = win.saved_actions
    new = n if win.ctl.session.actions[:len(saved)] != saved else n - len(saved)
    bits = []
    if new > 0 or len(saved) > n:
        bits.append(f"{max(new, 0)} unsaved action(s)")
    if win.ctl.redo_stack:
        bits.append(f"{len(win.ctl.redo_stack)} redo step(s)")
    return " and ".join(bits)


def looks_like_scene(p: Path) -> bool:
    """A scene file has a [map] table (pyproject.toml and other TOML files are not offered)."""
    try:
        if not p.is_file():              # a FIFO named *.toml would block the picker (found by fuzzing)
            return False
        with open(p, encoding="utf-8", errors="replace") as f:
            head = f.read(65536)
    except OSError:
        return False
    return "[map]" in head


#: Ctrl+O lists at most this many files (the picker scrolls); 30 cut the showcase off once 31 scenes shipped
MAX_OPENABLE = 500


def openable(scene) -> list[Path]:
    """Ctrl+O's list: the default save first, then the saves and scene files of the current folder, the scene's
    folder and ``scenes/``."""
    paths = []
    sp = save_path(scene)
    if sp.exists():
        paths.append(sp)
    here = Path(".")
    scene_dir = Path(scene.path).resolve().parent
    for d in dict.fromkeys([here.resolve(), scene_dir, Path("scenes").resolve()]):
        try:
            paths += sorted(p for p in d.glob("*.save.json") if p.resolve() != sp.resolve())
            paths += sorted(p for p in d.glob("*.toml") if looks_like_scene(p))
        except OSError:
            continue
    seen, out = set(), []
    for p in paths:
        r = p.resolve()
        if r not in seen:
            seen.add(r)
            out.append(p)
    return out[:MAX_OPENABLE]


def label(p: Path) -> str:
    """What Ctrl+O's picker says for a file: a scene's own name, a save's scene and number of actions, then the
    file's name (bare paths told a GM little -- issue 23 item 7)."""
    import json
    import tomllib

    from engine.errors import AerieError
    from engine.inputs import SCENE_MAX_BYTES, read_text

    try:
        text = read_text(p, SCENE_MAX_BYTES, p.name)      # bounded; a FIFO or device is refused, never read
        if p.name.endswith(".save.json"):
            d = json.loads(text)
            acts = d.get("actions") or []
            n = len(acts) if isinstance(acts, list) else 0
            return f"saved game: {Path(str(d.get('scene', '?'))).name}, {n} action(s)  ({p.name})"
        name = tomllib.loads(text).get("name")
        return f"{name}  ({p.name})" if isinstance(name, str) and name else p.name
    except (AerieError, OSError, ValueError, RecursionError, AttributeError):   # a label, not a check: the name
        return p.name


def open_path(win, path: Path) -> None:
    if str(path).endswith(".toml"):
        from engine.app.controller import Controller
        from engine.errors import AerieError
        from engine.scene import load_scene

        try:
            scene = load_scene(str(path))
            ctl = Controller(scene)
        except AerieError as e:
            win.say(f"{path}: {e}", "error")
            return
        win.do(win.set_controller, ctl)
        win.say(f"opened scene {path}")
        return
    win.do(load_save, win, path)


def load_save(win, path) -> None:
    old_scene = win.ctl.scene
    if win.ctl.load(path):
        if win.ctl.scene is not old_scene:
            win.set_controller(win.ctl)
        win.saved_actions = list(win.ctl.session.actions)
        win.say(win.named(win.ctl.message[0]))
    else:
        win.say(win.ctl.message[0], "error")
