"""The one place that performs what the modes and the HUD's sections ask (:mod:`engine.app.intents`): each intent
becomes the window's call -- a session change through ``do`` (after the worker), a controller call, a file saved
or opened, a GM step, the players' screen, a panel's row, the quit. The modes and the sections see tables
(:mod:`engine.app.table`, :mod:`engine.app.sections.context`); this is the side that holds the window."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.app import files, gmtable, mirror, outlook
from engine.app import intents as I
from engine.app.modes.compendium import Compendium
from engine.app.modes.prompts import Chooser, SaveFirst, open_chosen
from engine.app.modes.tokenhud import TokenHud, act
from engine.app.sections.castmenu import pick


def perform(win, intent: I.Intent) -> Any:
    """Do what ``intent`` asks of the window ``win``."""
    fn = _BY_TYPE.get(type(intent))
    if fn is None:
        raise TypeError(f"no one performs {intent!r}")
    return fn(win, intent)


def then(win, what: I.Then) -> Any:
    """What follows a prompt: an intent performed, or a callable called."""
    return perform(win, what) if isinstance(what, I.Intent) else what()


def save_first(win, it: I.SaveFirst) -> None:
    """``it.then`` at once when nothing would be lost (or a save-first prompt is up already), else after the
    save-first prompt."""
    lost = files.unsaved(win)
    if not lost or win.modes.find(SaveFirst) is not None:
        then(win, it.then)
        return
    hint = it.hint if it.hint is not None else f"{it.what}: {{lost}} not saved - Y saves first, N drops it, C keeps the window"
    win.modes.push(win.table, SaveFirst(it.what, lost, it.then, opens=it.opens))
    win.say(hint.replace("{lost}", lost), toast=False)


def save_then(win, it: I.SaveThen) -> None:
    if it.opens is not None and Path(it.opens).resolve() == files.save_target(win).resolve():
        win.say(f"not saved: saving would overwrite {Path(it.opens).name}, the game being opened")
        then(win, it.then)
        return
    try:
        files.save(win)
    except Exception as e:   # noqa: BLE001 - a save refused keeps the window and says why
        win.say(f"not saved, so not {it.what}: {e}", "error")
        return
    then(win, it.then)


def save(win, it: I.Save) -> None:
    from engine.errors import AerieError

    try:
        files.save(win)
    except AerieError as e:      # refused (it would replace a file the game reads): said, the window goes on
        win.say(f"not saved: {e}", "error")


def open_chooser(win, it: I.OpenChooser | None = None) -> None:
    """Ctrl+O: a picker of the saves and scenes around (the default save first)."""
    out = files.openable(win.scene)
    if not out:
        win.say("Ctrl+O: no scene or saved game here", "error")
        return
    win.modes.push(win.table, Chooser([str(p) for p in out], [files.label(p) for p in out]))
    win.say("Ctrl+O: choose a scene or a saved game (type to filter; Up/Down, Enter; Esc: cancel)", toast=False)


def _shot(win, it) -> None:
    win.shot_pending = True


# ------------------------------------------------------------------------------------ what the sections ask
def control(win, it: I.Control) -> None:
    fn = getattr(win.ctl, it.call)
    if it.wait:
        win.do(fn, *it.args)
    else:
        fn(*it.args)


def toggle_help(win, it: I.ToggleHelp) -> None:
    win.vstate.help = not win.vstate.help


def scroll_log(win, it: I.ScrollLog) -> None:
    win.vstate.log_scroll = max(0, win.vstate.log_scroll + it.by)


def pick_spell(win, it: I.PickSpell) -> None:
    if pick(win.ctl, it.spell):
        win.say(f"cast: {it.spell.replace('_', ' ')} - click a cell or a creature to aim it, Enter casts", toast=False)


def compendium_row(win, it: I.CompendiumRow) -> None:
    m = win.modes.find(Compendium)
    if m is not None:
        if it.i == m.i:
            m.add(win.table)
        else:
            m.i = it.i
        win.changed()


def token_hud_act(win, it: I.TokenHudAct) -> None:
    m = win.modes.find(TokenHud)
    if m is not None and not act(win.table, m.cid, it.what, it.value):
        win.modes.remove(win.table, m)


def open_chosen_row(win, it: I.OpenChosen) -> None:
    ch = win.modes.find(Chooser)
    if ch is not None:
        ch.i = it.i
        open_chosen(win.table)


def hide_outlook(win, it: I.HideOutlook) -> None:
    outlook.outlook(win).shown = False
    outlook.outlook(win).setup = False
    win.say("how does this end? hidden (I shows it again)")


_BY_TYPE: dict[type, Any] = {
    I.Do: lambda win, it: win.do(it.fn, *it.args),
    I.Call: lambda win, it: it.fn(),
    I.Say: lambda win, it: win.say(it.text, it.kind, toast=it.toast),
    I.Click: lambda win, it: win.click(*win.mouse),
    I.Screenshot: _shot,
    I.Hotseat: lambda win, it: win.seats.hotseat(win.ctl, win.say),
    I.NextPlayerView: lambda win, it: win.seats.cycle(win.ctl, win.say),
    I.ToggleMirror: lambda win, it: mirror.toggle(getattr(win, "gm", None) or win),
    I.Caption: lambda win, it: win.set_caption(it.text),
    I.Outlook: lambda win, it: outlook.cycle_policy(win) if it.choose else outlook.start(win),
    I.Quit: lambda win, it: win.quit(),
    I.Save: save,
    I.SaveAs: lambda win, it: files.save_as(win, it.name),
    I.OpenPath: lambda win, it: files.open_path(win, Path(it.path)),
    I.OpenChooser: open_chooser,
    I.SaveFirst: save_first,
    I.SaveThen: save_then,
    I.GmStep: lambda win, it: gmtable.gm_step(win, it.action),
    I.GmCommand: lambda win, it: gmtable.gm_command(win, it.text),
    I.Control: control,
    I.ToggleHelp: toggle_help,
    I.ScrollLog: scroll_log,
    I.PickSpell: pick_spell,
    I.CompendiumRow: compendium_row,
    I.TokenHudAct: token_hud_act,
    I.OpenChosen: open_chosen_row,
    I.OutlookSide: lambda win, it: outlook.cycle_side(win, it.side),
    I.HideOutlook: hide_outlook,
}
