"""How a stat block's grappling hit reads (SRD-19, SRD-28, SRD-29): the text after "Hit:" made into the weapon's
``grapple`` entry (escape DC, the largest size it holds, restrained, one target, how many it holds, damage while
held), or why it is left out. Split from srd_blocks.py, which reads the rest of the record."""

from __future__ import annotations

import re


GRAPPLED = re.compile(r"(?:,? and the target is grappled|\. (?:If the target is (?:a |an )?(?P<size>Tiny|Small|Medium|Large|"
                      r"Huge)(?: or smaller)?(?: creature)?, it|If the target is a creature, it|The target) is grappled)"
                      r" \(escape DC (?P<dc>\d+)\)(?P<restr> and restrained until the grapple ends)?\.")
HELD = re.compile(r"^Until this grapple ends, (?:the (?:target|creature) is restrained(?:, and the [\w ]+ can't "
                  r"(?:use its [\w ]+ on|\w+) another target)?|the [\w ]+ can't use its [\w ]+ on another target)\.?$")


#: SRD-28 "The target is grappled (escape DC 16) if the behir isn't already constricting a creature, and the target is
#: restrained until this grapple ends."; "if it is a Large or smaller creature and the chuul doesn't have two other
#: creatures grappled."
GRAPPLED_IF = re.compile(r"The target is grappled \(escape DC (?P<dc>\d+)\) if (?:it is an? (?P<size>Tiny|Small|Medium|"
                         r"Large|Huge) or smaller creature and )?the \w+ (?:isn't already (?:constricting|grappling) a "
                         r"creature|doesn't have (?P<two>two) other creatures grappled)(?P<restr>, and the target is "
                         r"restrained until this grapple ends)?\.")
#: SRD-29 "Until this grapple ends, the target is restrained and takes 7 (2d6) piercing damage at the start of each of
#: its turns."
HELD_HURT = re.compile(r"^Until this grapple ends, the target is restrained and takes \d+ \((\d+d\d+)\) (\w+) damage at "
                       r"the start of each of its turns\.$")
#: SRD-28 "Until this grapple ends, the ankheg can bite only the grappled creature and has advantage on attack rolls to
#: do so."
ONLY_HELD = re.compile(r"^Until this grapple ends, the \w+ can bite only the grappled creature and has advantage on "
                       r"attack rolls to do so\.$")
#: SRD-28 "The kraken has ten tentacles, each of which can grapple one target."
LIMBS = re.compile(r"The [\w ]+ has (two|ten) (?:claws|pincers|tentacles), each of which can grapple (?:only )?one "
                   r"target\.")
NUMBERS = {"two": 2, "ten": 10}


def grapple(f: dict) -> tuple[dict | None, str]:
    """(the weapon's ``grapple``, what is left out) for an attack whose hit grapples (SRD-19): "and the target is
    grappled (escape DC 19). Until this grapple ends, the target is restrained, and the roc can't use its talons on
    another target."; (None, why) when its text says more than the rules play."""
    if not f.get("grapple_escape_dc"):
        return None, ""
    hit = f["desc"].split("Hit:", 1)[-1].strip()
    m = GRAPPLED.search(hit) or GRAPPLED_IF.search(hit)
    if not m:
        return None, "the grapple on a hit (its condition as written is not read)"
    rest = hit[m.end():].strip()
    entry: dict = {"escape_dc": int(m.group("dc"))}
    limbs = LIMBS.search(rest)                  # SRD-28: "The crab has two claws, each of which can grapple ..."
    if limbs:
        entry["max_held"] = NUMBERS[limbs.group(1)]
        rest = (rest[:limbs.start()] + rest[limbs.end():]).strip()
    if m.re is GRAPPLED_IF:                     # SRD-28: "if the behir isn't already constricting a creature"
        entry["max_held"] = 2 if m.group("two") else 1
    if m.group("size"):
        entry["max_size"] = m.group("size").lower()
    if m.group("restr"):
        entry["restrained"] = True
    if ONLY_HELD.match(rest):                   # SRD-28: "can bite only the grappled creature and has advantage ..."
        entry["one_target"] = True
        entry["advantage_held"] = True
        rest = ""
    hurt = HELD_HURT.match(rest)                # SRD-29: "... and takes 7 (2d6) piercing damage at the start of ..."
    if hurt:
        entry["restrained"] = True
        entry["each_turn"] = {"dice": hurt.group(1), "type": hurt.group(2)}
        rest = ""
    if rest:
        h = HELD.match(rest)
        if not h:
            return None, "the grapple on a hit; left out: " + rest[:200]
        if "restrained" in rest:
            entry["restrained"] = True
        if "another target" in rest:
            entry["one_target"] = True
    before = hit[:m.start()].strip()
    if m.re is GRAPPLED_IF:
        before = before.rstrip(".")             # its match begins after the damage's sentence
    if f.get("on_hit_save") or len(before.split(". ")) > 1:
        return None, "the grapple on a hit (with more in the text)"
    return entry, ""
