"""The baton ruleset's options (scene ``[options]``) and the names a baton character may use (attributes, skills).

Every option is typed with its range or allowed values; ``engine.rules.options`` validates a scene against it.
"""

from __future__ import annotations

from engine.errors import AerieError
from engine.rules.options import AERIAL, OptionSpec, closest
from engine.rules.baton.dice import parse
from engine.errors import SceneError
from engine.rules.baton.data import WEAPONS


def _dice(value) -> bool:

    try:
        n, sides, _ = parse(value) if isinstance(value, str) else (None, None, None)
    except ValueError:
        return False
    return n is not None and n >= 1


def _damage_scale(value, path):
    if not (isinstance(value, list) and 2 <= len(value) <= 32 and all(_dice(v) for v in value)):
        raise AerieError(f"{path}: a list of 2..32 dice expressions, e.g. [\"1d2\", \"1d3\", \"1d4\", \"1d6\"]")
    return value


def _fire_sources(value, path):
    ok = isinstance(value, dict) and len(value) <= 64 and all(
        isinstance(v, list) and len(v) == 2 and all(isinstance(i, int) and not isinstance(i, bool) and 0 <= i <= 20 for i in v)
        for v in value.values())
    if not ok:
        raise AerieError(f"{path}: a table of source = [base severity, growth per turn] (integers 0..20), "
                         "e.g. {{ brazier = [3, 2] }}")
    return value


SPECS = {
    **AERIAL,
    "success_level": OptionSpec("choice", "total-difficulty+1", choices=("total-difficulty+1", "total-difficulty", "per-3"),
                                help="BAT-00 (inferred): the success level of a test"),
    "damage_scale": OptionSpec("custom", None, check=_damage_scale, help="BAT-00 (inferred): the damage scale"),
    "chance_cap": OptionSpec("int", 3, 0, 10, help="BAT-00: the most positive or negative chances"),
    "criticals_decide": OptionSpec("bool", True, help="a natural 12 always succeeds, a natural 1 always fails"),
    "base_difficulty": OptionSpec("int", 7, 0, 100, help="BAT-14: attack difficulty = this + the defence skill"),
    "wound_light_max": OptionSpec("int", 3, 1, 100, help="BAT-27: the highest severity of a light wound"),
    "wound_moderate_max": OptionSpec("int", 6, 1, 100, help="BAT-27: the highest severity of a moderate wound"),
    "protection_penalty": OptionSpec("choice", "worn", choices=("worn", "current"), help="BAT-17"),
    "physique_bonus": OptionSpec("bool", True, help="BAT-36: medium and large weapons add Physique to damage"),
    "air12_vs_bat47": OptionSpec("choice", "bat47", choices=("bat47", "air12"), help="how a fall to the ground hurts"),
    "drop_prone": OptionSpec("bool", True, help="AIR-12: a deliberate drop that reaches the surface leaves the "
                                                "character prone like any fall (false: it lands on its feet)"),
    "air17_overrides_elevation": OptionSpec("bool", True, help="height alone gives no positive chance (AIR-17 over BAT-44)"),
    "elevation_layers": OptionSpec("int", 2, 1, 64, help="BAT-44 with the option above off"),
    "keep_prefers": OptionSpec("choice", "combat", choices=("combat", "turn"), help="BAT-08"),
    "lone_keeps": OptionSpec("bool", True, help="BAT-08: with no other ally able to act it keeps the baton"),
    "after_combat": OptionSpec("choice", "over", choices=("over", "continue"), help="end the session or go on"),
    "default_speed_m": OptionSpec("float", 9.0, 0.0, 1000.0, help="speed of a character that gives none"),
    "opportunity_attacks": OptionSpec("bool", True, help="BAT-38"),
    "unarmed_opportunity": OptionSpec("bool", False, help="BAT-38: bare hands (nothing wielded, e.g. after a disarm) "
                                                          "make opportunity attacks too (natural weapons always do)"),
    "opportunity_lasts": OptionSpec("choice", "creator_turn", choices=("creator_turn", "target_turn"),
                                    help="BAT-15: exposed/shaken from an opportunity last until the initiative comes "
                                         "back to the creator's side, or until the target's next turn (the earlier reading)"),
    "hallucination_tests": OptionSpec("choice", "reality", choices=("reality", "all"),
                                      help="BAT-53: a hallucinating character's negative chance on the tests that "
                                           "discern reality (perception), or on every test"),
    "cover_exposure": OptionSpec("bool", True, help="BAT-41: leaving total cover"),
    "exposed_counts_once": OptionSpec("bool", True, help="BAT-41: an exposure counts once per turn"),
    "fire_sources": OptionSpec("custom", {}, check=_fire_sources, help="BAT-50 extra or replaced fire sources"),
    "door_action": OptionSpec("choice", "minor", choices=("minor", "major"),
                              help="opening a door (the document names none): the minor action, handling a thing "
                                   "(BAT-05), or the major one, manipulating the battlefield (BAT-04/15)"),
    "auto_confusion": OptionSpec("bool", True, help="BAT-58: the engine plays a confused character's activation"),
    "confused_pass": OptionSpec("choice", "any_ally", choices=("any_ally", "fresh_ally"),
                                help="BAT-58: a confused character always passes to an ally -- one who has not acted "
                                     "in this turn first, else any ally not confused too (any_ally), or only the "
                                     "fresh ones, else the opponents (fresh_ally, the earlier reading)"),
    "effect_turns": OptionSpec("choice", "through", choices=("through", "on_return"),
                               help="BAT-11: an effect for N turns affects its target in each of the N turns of its side "
                                    "(through) or ends when the baton returns to the giver's side (on_return, the old reading)"),
    "helpless_test": OptionSpec("choice", "roll", choices=("roll", "none"),
                                help="BAT-37 with BAT-08: an attack on a helpless target rolls the die for the baton "
                                     "(roll) or takes no test and loses the initiative (none, the old reading)"),
}

#: the document's attributes (Físico, Agilidade; BAT-22) -- a character may give only these
ATTRIBUTES = ("physique", "agility")
#: skills the document and docs/baton.md name; plus fight_<weapon>, ride_<kind> and the attributes themselves
SKILLS = ("dodge", "shield", "defence", "athletics", "fight_unarmed", "ride", "treat_wounds", "intimidate",
          "perform", "perception", "stealth", "survival")


def check_names(attributes: dict, skills: dict, weapons: list, file: str, key: str) -> None:
    """Unknown attribute and skill names are errors naming the closest known name (a typo would be level 0)."""

    for k in attributes or {}:
        if k not in ATTRIBUTES:
            raise SceneError(file, f"{key}.attributes.{k}", f"unknown attribute{closest(k, ATTRIBUTES)}")
    names: set[str] = set(WEAPONS) | {str(w["name"]) for w in weapons if isinstance(w, dict) and isinstance(w.get("name"), str)} \
        | {w for w in weapons if isinstance(w, str)}
    own = {w.get("skill") for w in weapons if isinstance(w, dict) and isinstance(w.get("skill"), str)}
    for k in skills or {}:
        if k in SKILLS or k in ATTRIBUTES or k in own:
            continue
        if k.startswith("fight_") and k[6:] in names:
            continue
        if k.startswith("ride_") and len(k) > 5:
            continue
        known = list(SKILLS) + list(ATTRIBUTES) + [f"fight_{n}" for n in sorted(names)]
        raise SceneError(file, f"{key}.skills.{k}", f"unknown skill{closest(k, known)}")
