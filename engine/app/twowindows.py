"""The players' screen (F4) makes two pyglet windows in one program, each with its own GL context and its own X
focus: what either must do about the other. Kept out of engine/app/window.py, which is the window itself."""

from __future__ import annotations


def players_screen(win) -> bool:
    """``win`` is the players' screen (F4's second window: ``win.gm`` is the GM's window)."""
    return getattr(win, "gm", None) is not None


def own_context(win) -> None:
    """With the players' screen open (F4) there are two GL contexts, and pyglet makes a window's current for its
    on_draw only: a handler or a tick that builds GL objects (another scene's renderer, a storey cut's meshes)
    must build them in its own window's context, not in the one drawn last (a segfault when they are drawn)."""
    if (getattr(win, "gm", None) is not None or getattr(win, "mirror", None) is not None) and \
            getattr(win, "context", None) is not None:
        win.switch_to()


def forget_held_keys(win) -> None:
    """pyglet's X window drops a key's press while it holds the key for pressed (its own auto-repeat test), and a
    key released while another window has the focus never reaches this one: so F4, which opens the players' screen
    (whose window takes F4's release), did nothing the next time. Called when the window loses the focus and just
    after the players' screen opens."""
    held = getattr(win, "pressed_keys", None)
    if isinstance(held, set):
        held.clear()


class HeldKeys:
    """Pushed on a window as pyglet's KeyStateHandler is (its own frame): losing the focus forgets the held keys."""

    def __init__(self, win) -> None:
        self.win = win

    def on_deactivate(self):
        forget_held_keys(self.win)
