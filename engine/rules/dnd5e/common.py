"""Module-level names of the Dnd5e ruleset (shared by its ruleset, parts and actions)."""

from __future__ import annotations

from engine.rules.core import Actor, Illegal

SKILL_ABILITY = {"athletics": "str", "acrobatics": "dex", "stealth": "dex", "sleight_of_hand": "dex",
                 "perception": "wis", "medicine": "wis", "insight": "wis", "survival": "wis",
                 "investigation": "int", "arcana": "int", "intimidation": "cha", "persuasion": "cha"}
ABILITIES = ("str", "dex", "con", "int", "wis", "cha")
OBJECTS = {"potion_of_healing": {"heal": "2d4", "bonus": 2, "range_m": 1.5}}


def mod(score: int) -> int:
    return (int(score) - 10) // 2


def dice_spec(text: str) -> tuple[int, int]:
    n, _, s = text.partition("d")
    return int(n or 1), int(s)


def need_action(rs, a: Actor, session, what: str, rule: str):
    if session.state.turn["action"]:
        raise Illegal(f"{a.name} has already used its action this turn; {what} takes an action", rule)


def living_target(rs, session, a: Actor, tid: str, key="target") -> Actor:
    t = session.actor(tid, key)
    if t.dead:
        raise Illegal(f"{t.name} is dead", "DND-01", key)
    return t


#: the SRD's thirteen damage types (the stat blocks' and the scenes' words)
DAMAGE_TYPES = ("acid", "bludgeoning", "cold", "fire", "force", "lightning", "necrotic", "piercing", "poison",
                "psychic", "radiant", "slashing", "thunder")
