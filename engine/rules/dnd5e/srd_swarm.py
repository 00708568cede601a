"""SRD-41, the bodies that share a space, as the SRD 5.1 writes them (the sheet's ``srd_features``,
engine/rules/dnd5e/srd_features.py; the catalogue: srd_catalogue2.py):

* Swarm: "The swarm can occupy another creature's space and vice versa, and the swarm can move through any opening
  large enough for a Tiny bat. The swarm can't regain hit points or gain temporary hit points."
* Air Form (the water elemental's Water Form alike): "The elemental can enter a hostile creature's space and stop
  there. It can move through a space as narrow as 1 inch wide without squeezing."

The path search (engine/rules/pathing.py ``SHARES``, ``SQUEEZES``) and ``aerial.body_in_the_way`` ask these rules;
the healing (engine/rules/dnd5e/damage.py ``NO_HEALING``) asks the swarm's.
"""

from __future__ import annotations

from engine.rules import pathing
from engine.rules.dnd5e import damage

RULE = "SRD-41"


def _has(a, key: str) -> bool:
    return bool((a.data.get("srd_features") or {}).get(key))


def shares_space(a, o) -> bool:
    """``a`` may pass through and stop in ``o``'s space: a swarm in anyone's, anyone in a swarm's ("and vice
    versa"); Air Form in a hostile creature's (an ally's space it passes as anyone does, without stopping there)."""
    return _has(a, "swarm") or _has(o, "swarm") or (_has(a, "air_form") and o.side != a.side)


def squeezes(a) -> bool:
    """"through any opening large enough for a Tiny bat" / "as narrow as 1 inch wide": its path passes every node
    where one voxel is free (a Tiny body's), and ends where its own body fits."""
    return _has(a, "swarm") or _has(a, "air_form")


def no_healing(a, what: str):
    """"The swarm can't regain hit points or gain temporary hit points.\""""
    if _has(a, "swarm"):
        return ("a swarm can't regain hit points" if what == "heal" else
                "a swarm can't gain temporary hit points"), RULE
    return None


pathing.SHARES.append(shares_space)
pathing.SQUEEZES.append(squeezes)
damage.NO_HEALING.append(no_healing)
