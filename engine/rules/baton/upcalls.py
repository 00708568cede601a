"""The baton functions a lower layer calls but a higher one defines (engine/rules/layers.py): declared here, filled
by the module above when it loads (``MOUNT.provide(throw_rider)``), called below as ``MOUNT.throw_rider(...)``
without importing the module above. The ruleset imports every provider."""

from __future__ import annotations

from engine.rules.hooks import Upcalls

#: an attack's reach, asked when a grapple is checked (baton/combat.py provides)
COMBAT = Upcalls("baton combat (baton/combat.py)", ("in_reach",))
#: a rider knocked off its mount (baton/mounts.py provides)
MOUNT = Upcalls("baton mounts (baton/mounts.py)", ("throw_rider",))
#: the players' choices of a defence and of a critical's effect (baton/choices.py provides)
CHOICE = Upcalls("baton choices (baton/choices.py)", ("choose_crit", "choose_defence"))
#: the per-turn effects a wound starts and ends (baton/baton_order.py provides)
EFFECTS = Upcalls("baton order (baton/baton_order.py)", ("add_effect", "end_effect"))
