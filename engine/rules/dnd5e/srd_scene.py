"""A 5e scene's characters from the stat blocks: ``srd = "young-red-dragon"`` takes that SRD creature
(srd_blocks.character), ``kind = "<block>"`` a ready block (data.STATBLOCKS) or one of the scene's ``statblocks``
libraries (engine/rules/statblocks.py's format: ``aerie import`` writes them); the keys the scene writes override
the block's. ``kind`` naming no block is an error naming the closest ones -- unless the scene gives every number
itself, when the kind is a free label (a warning names the closest blocks).

Called by the scene loader through the ruleset's registry entry (``extra["character_blocks"]``) before the
character's keys are checked, so a block's keys are checked exactly as the scene's own.
"""

from __future__ import annotations

from engine import console
from engine.errors import SceneError
from engine.rules.dnd5e.data import STATBLOCKS
from engine.rules.dnd5e.srd_blocks import bestiary, character, closest

#: the keys that make a character's numbers its own: with all of them a kind may be a free label
OWN_NUMBERS = ("max_hp", "ac", "abilities", "weapons")


def expand(raw: dict, file: str, key: str, libraries: dict[str, dict]) -> dict:
    """The character table to check and play: the block's keys under the scene's own."""
    table = dict(raw)
    if "srd" in table:
        sid = table.pop("srd")
        creatures = bestiary()
        if not isinstance(sid, str) or sid not in creatures:
            near = closest(str(sid), creatures)
            raise SceneError(file, f"{key}.srd", f"no SRD creature {sid!r}" + (
                f"; closest: {', '.join(near)}" if near else "") + " (`aerie compendium creatures TEXT` lists them)")
        table = {**character(creatures[sid]), **table}
    kind = table.get("kind")
    if kind is None:
        return table
    if not isinstance(kind, str):        # looked up before the character's own validation: a list is unhashable
        raise SceneError(file, f"{key}.kind", f"a stat block's name (a string), not {kind!r}")
    if kind in STATBLOCKS:
        return table
    if kind in libraries:
        block = {k: v for k, v in libraries[kind].items() if k != "about"}
        if "srd" in block:
            block = expand(block, file, f"{key}.kind", {})
        return {**block, **table}
    near = closest(kind, list(STATBLOCKS) + list(libraries), 3)
    srd = closest(kind, bestiary(), 2)
    hint = "; ".join(filter(None, [f"closest blocks: {', '.join(near)}" if near else "",
                                  " or ".join(f'srd = "{s}"' for s in srd)]))
    if all(k in table for k in OWN_NUMBERS):
        console.note(f"warning: {file}: {key}.kind: {kind!r} names no stat block; kept as a label, the scene gives every "
                     f"number ({hint or 'no block is close'})")
        return table
    raise SceneError(file, f"{key}.kind", f"no stat block {kind!r}" + (f" ({hint})" if hint else "") +
                     f"; give {', '.join(OWN_NUMBERS)} to use it as a free label")
