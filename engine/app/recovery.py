"""No error in a frame ends the window (issue 23 item 1): the frame is dropped, the error is said in red, and the
GM's work -- the session's actions and the fog-of-war memory, as Ctrl+S saves them -- is saved to a recovery file
next to the save (``SCENE.recovery.save.json``), which the next start for the same scene offers to load (Y) or sets
aside (N: renamed ``*.dropped``)."""

from __future__ import annotations

import traceback
from pathlib import Path

from engine.app import files


def recovery_path(scene) -> Path:
    p = files.save_path(scene)
    name = p.name[:-len(".save.json")] if p.name.endswith(".save.json") else p.stem
    return p.with_name(name + ".recovery.save.json")


def save_recovery(win) -> Path | None:
    """The session's actions to the recovery file (once per number of actions: an error in every frame does not
    rewrite it every frame); None when there is no work to lose. The file is what Ctrl+S writes: the fog-of-war
    memory (engine/app/fog.py) goes with the actions, and a load of it gives it back."""
    n = len(win.ctl.session.actions)
    if n == 0 or win.recovered_at == n:
        return None
    p = win.ctl.write_save(recovery_path(win.scene))     # atomic, like every save
    win.recovered_at = n
    return Path(p)


def frame_error(win, where: str, e: BaseException) -> None:
    """An error in a frame or a handler: printed once per kind, said on screen, the work saved."""
    sig = (where, type(e).__name__, str(e))
    if sig != win.last_error:
        traceback.print_exc()
        win.last_error = sig
    try:
        p = save_recovery(win)
    except Exception as e2:   # noqa: BLE001 - the recovery itself must not take the window down
        p = None
        win.ctl.say(f"internal error in {where}: {type(e).__name__}: {e}; the recovery save failed too: {e2}", "error")
        return
    if p is None and win.recovered_at and win.recovered_at == len(win.ctl.session.actions):
        p = recovery_path(win.scene)             # saved by an earlier error: still the whole game
    saved = f" - the game is saved to {p} (offered at the next start)" if p else ""
    win.ctl.say(f"internal error in {where}: {type(e).__name__}: {e}{saved}", "error")
    win.changed()
    win.loop.scene_key = None


def offer(win) -> None:
    """At the start: a recovery file for this scene is offered (Y loads it, N sets it aside)."""
    from engine.app.modes.prompts import YesNo

    p = recovery_path(win.scene)
    if not p.is_file():
        return

    def yes():
        files.load_save(win, p)
        if win.ctl.session.actions:
            p.replace(p.with_name(p.name + ".loaded"))

    def no():
        p.replace(p.with_name(p.name + ".dropped"))

    win.modes.push(win.table, YesNo(f"Recover the game saved when the window hit an error ({p.name})? Y loads it, "
                              "N sets it aside", yes, no))
    win.say(f"a recovery save is here: {p} - Y loads it, N sets it aside", toast=False)
