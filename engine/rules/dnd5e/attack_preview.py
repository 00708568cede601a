"""The 5e preview of an attack on a character (``Attack.preview``, engine/rules/dnd5e/actions/standard.py): the
to-hit roll and its chance, cover, advantage, the feats and notes that change it, what follows a hit."""

from __future__ import annotations

from engine.rules.dnd5e import attacks, concentration, feats, gear, loading


def on_character(rs, session, a, act, plan) -> dict:
    """An attack on a character: the to-hit roll, its chance, cover, advantage and what follows a hit."""
    t = session.state.actors[plan["target"]]
    adv, dis = attacks.attack_sources(rs, session, a, t, plan)
    bonus = attacks.attack_bonus(rs, a, plan["weapon"], plan["melee"])
    mods = feats.attack_mods(rs, session, a, t, plan, act)
    bonus += sum(m["to_hit"] for m in mods)
    ac = t.data["ac"] + {"half": 2, "three-quarters": 5}.get(plan["cover"], 0)
    need = max(2, min(20, ac - bonus))
    p1 = (21 - need) / 20.0
    p = 1 - (1 - p1) ** 2 if adv and not dis else (p1 * p1 if dis and not adv else p1)
    out = {"target": t.id, "weapon": plan["weapon"]["name"], "melee": plan["melee"], "cover": plan["cover"],
           "blocked_fraction": plan["blocked_fraction"], "distance_m": plan["distance_m"],
           "advantage": [list(s) for s in adv], "disadvantage": [list(s) for s in dis],
           "height": "no bonus to hit (AIR-17)", "to_hit_bonus": bonus, "target_ac": ac,
           "hit_chance": round(p, 4), "target_flying": t.flying,
           "fall_roll_on_hit": t.flying, "chance_fall_roll_moves_it": 0.8 if t.flying else 0.0}
    if a.data.get("feats") or t.data.get("feats"):
        out["feats"] = feats.preview_lines(rs, session, a, t, plan, act, mods)
    notes = [n for n in (loading.preview_note(a, plan["weapon"], session.state.turn)
                         if "loading" in plan["weapon"]["properties"] else None,      # DND-F28
                         concentration.preview_note(rs, session, t, a) if t.data.get("concentration") else None) if n]
    if notes:                                                                       # DND-21, F40
        out["notes"] = notes
    if "weapon_profs" in a.data and not gear.proficient_weapon(a, plan["weapon"]):
        out["not_proficient"] = f"{a.name} is not proficient with the {plan['weapon']['name']}: no proficiency bonus"
    return out
