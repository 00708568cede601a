"""The players' screen as a second window (issue 23 item 5: "offer the player view as a second window for a
second screen"). F4 in the GM's window opens it: another pyglet window on the same session -- the same
controller, the same workers and session lock --, its own GL context and renderer, showing what one side sees
(the one player filter). It opens on another screen when there is one (else beside the GM's window), the keys
stay with the GM's window; it takes only the camera (drag, wheel), F3 (the next side) and F4 (close it); closing it
leaves the GM's window as it was. F4 again in the GM's window closes it too."""

from __future__ import annotations

import pyglet


def toggle(gm) -> None:
    """F4 in the GM's window: open the players' screen (the first side that is not the GM's... the first side),
    or close it."""
    from engine.app.twowindows import forget_held_keys

    if gm.mirror is not None:
        gm.mirror.quit()
        # the closed window may have taken F4's press or release (a test under load saw the next F4 do nothing):
        # the GM's window forgets what it holds now and after this handler returns
        forget_held_keys(gm)
        pyglet.clock.schedule_once(lambda dt: forget_held_keys(gm), 0)
        gm.say("F4: the players' screen is closed")
        return
    sides = list(dict.fromkeys(a.side for a in gm.ctl.state.actors.values()))
    side = gm.vstate.player_side or (sides[0] if sides else None)
    W, Hh = gm.get_size()
    gm.mirror = type(gm)(gm.scene, size=(W, Hh), mirror_of=gm, side=side)    # a window as the GM's: no import of it
    place(gm, gm.mirror)
    gm.switch_to()
    gm.activate()             # the keys stay with the GM's window: the players' screen only shows
    # F4's release goes to the new window, and pyglet marks F4 held after this handler returns: forgotten then,
    # or the next F4 here would do nothing
    pyglet.clock.schedule_once(lambda dt: forget_held_keys(gm), 0)
    gm.say(f"F4: the players' screen (side {side}) is open in a second window: F3 there: the next side, "
           "F4: close it")


def place(gm, m) -> None:
    """The players' screen on a screen the GM's window is not on (the table's display) when there is one, else
    beside the GM's window as far as the screen allows (both windows start at the top left)."""
    try:
        screens = list(gm.display.get_screens())
        gx, gy = gm.get_location()
        other = [s for s in screens if not (s.x <= gx < s.x + s.width and s.y <= gy < s.y + s.height)]
        if other:
            m.set_location(other[0].x, other[0].y)
        elif screens:          # one monitor: beside the GM's window where there is room, else its right half
            s = next((s for s in screens if s.x <= gx < s.x + s.width and s.y <= gy < s.y + s.height), screens[0])
            w, h = m.get_size()
            gw = gm.get_size()[0]
            right = gx + gw
            edge = max(s.x, s.x + s.width - w)         # as far right as the screen allows
            if right + w <= s.x + s.width:
                m.set_location(right, gy)
            elif gx + gw - edge <= gw / 2:             # at the right edge it covers at most half of the GM's window
                m.set_location(edge, gy)
            else:              # no room: half the screen, over the GM's right half (issue 40 item 4: it covered all)
                half = s.width // 2
                m.set_size(half, min(h, s.height))
                m.set_location(s.x + s.width - half, s.y)
    except Exception:   # noqa: BLE001 - where the window opens is a courtesy: a display without screens keeps (0, 0)
        pass


def follow(win) -> None:
    """Each tick of the players' window: the GM's window may have opened another scene, or switched the units
    (Ctrl+U: the table speaks one measure on both screens), hidden a character from the players or shown
    them their enemies' health (the token HUD's hide, Shift+F3), or cut the storeys above one away (, and .)."""
    gm = win.gm
    if win.ctl is not gm.ctl:
        win.set_controller(gm.ctl)
    # the GM's choices for the players' view are made in the GM's window (the token HUD's hide, Shift+F3) and hold
    # on the players' screen, which has no key for them; the same value: no change, no redraw (ViewState.__setattr__)
    win.vstate.units = gm.vstate.units
    win.vstate.hidden = gm.vstate.hidden
    win.vstate.reveal_hp = gm.vstate.reveal_hp
    win.vstate.cut_above = gm.vstate.cut_above    # the storey the GM opens (, and .) is the one the players see
