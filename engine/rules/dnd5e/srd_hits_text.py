"""What the SRD flyers' hits do after the damage, read from the stat blocks' text (assets/srd/creatures.json): the
infernal wound (SRD-46), the cockatrice's petrification (SRD-47). Data only: srd_rider_text.read gives the weapon's
``on_hit`` a ``rider`` from here, and the sentences read here are left out of what ``features`` names as left out. The
rules that play them: engine/rules/dnd5e/srd_wound.py; the catalogue: srd_catalogue_riders.py."""

from __future__ import annotations

import re

#: SRD-46 the horned devil's Tail, the bearded devil's Glaive: "If the target is a creature other than an undead or a
#: construct, it must succeed on a DC 17 Constitution saving throw or lose 10 (3d6) hit points at the start of each of
#: its turns due to an infernal wound. Each time the devil hits the wounded target with this attack, the damage dealt
#: by the wound increases by 10 (3d6). Any creature can take an action to stanch the wound with a successful DC 12
#: Wisdom (Medicine) check. The wound also closes if the target receives magical healing."
WOUND = re.compile(r"If the target is a creature other than an undead or a construct, it must succeed on a DC \d+ "
                   r"Constitution saving throw or lose \d+ \((\d+d\d+)\) hit points at the start of each of its turns "
                   r"due to an infernal wound\. Each time the devil hits the wounded target with this attack, the "
                   r"damage dealt by the wound increases by \d+ \((\d+d\d+)\)\. Any creature can take an action to "
                   r"stanch the wound with a successful DC (\d+) Wisdom \(Medicine\) check\. The wound also closes if "
                   r"the target receives magical healing\.$")
#: SRD-47 the cockatrice's Bite: "... the target must succeed on a DC 11 Constitution saving throw against being
#: magically petrified. On a failed save, the creature begins to turn to stone and is restrained. It must repeat the
#: saving throw at the end of its next turn. On a success, the effect ends. On a failure, the creature is petrified
#: for 24 hours."
PETRIFY = re.compile(r"saving throw against being magically petrified\. On a failed save, the creature begins to turn "
                     r"to stone and is restrained\. It must repeat the saving throw at the end of its next turn\. On a "
                     r"success, the effect ends\. On a failure, the creature is petrified for (\d+) hours\.$")


def read(text: str):
    """(the on-hit ``rider``, a test of the sentences it covers) of a hit's text after "Hit:", or (None, None)."""
    text = " ".join(text.split())
    m = WOUND.search(text)
    if m:
        return ({"kind": "wound", "dice": m.group(1), "more": m.group(2), "stanch_dc": int(m.group(3)),
                 "spares": ["undead", "construct"]}, lambda x, s=m.group(0): x in s)
    m = PETRIFY.search(text)
    if m:
        return {"kind": "petrify", "hours": int(m.group(1))}, lambda x, s=m.group(0): x in s
    return None, None
