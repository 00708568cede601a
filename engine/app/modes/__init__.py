"""Input modes: the window hands each event to the top mode of a stack (:mod:`engine.app.modes.base`).

A new mode is one new file with a :class:`~engine.app.modes.base.Mode` subclass and one line that returns it
from a key's handler in :data:`engine.app.modes.main.KEYMAP` (see docs/window.md, "Adding a mode or a panel")."""
