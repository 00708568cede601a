"""Baton attacks: weapons, reach, cover, chances, defence, resolution, opportunity attacks, terrain (BAT-12..14, BAT-32..46)."""

from __future__ import annotations

from engine.rules.baton.upcalls import COMBAT
from engine.rules import aerial, riding
from engine.rules.baton import initiative, mounts, skills, slots
from engine.rules.baton.upcalls import CHOICE
from engine.rules.baton import dice as bd
from engine.rules.core import Actor, Illegal
from engine.rules.registry import cover_levels
from engine.world.cover import cover_between
from engine.world.geometry import distance_m, in_melee_reach
from engine.world.geometry import Body, cell_gap


def equipped(rs, a: Actor) -> list[dict]:
    out = []
    for n in a.data["equipped"]:
        w = next((w for w in a.data["weapons"] if w["name"] == n), None)
        if w:
            out.append(w)
    return out


def main_weapon(rs, a: Actor) -> dict:
    eq = equipped(rs, a)
    if eq:
        return eq[0]
    return next(w for w in a.data["weapons"] if w["name"] == "unarmed")


def is_melee(rs, w: dict) -> bool:
    return float(w.get("range_m", 0)) <= 0


def reach_of(rs, a: Actor, w: dict) -> float:
    return float(w.get("reach_m", a.data["reach_m"]))


def melee_weapon(rs, a: Actor) -> dict | None:
    """The melee weapon it wields (natural weapons count); None with only a ranged weapon in hand."""
    eq = equipped(rs, a)
    for w in eq:
        if is_melee(rs, w):
            return w
    if not eq:
        return next(w for w in a.data["weapons"] if w["name"] == "unarmed")
    return None


def can_counter(rs, a: Actor) -> bool:
    """May answer at once (a counterattack, BAT-13; an opportunity attack "é considerado um contra-ataque",
    BAT-38; the shot at one leaving total cover, BAT-41): able, and no condition tagged ``no_counterattack``
    (paralyzed, BAT-61: it cannot move, so it makes none)."""
    return initiative.able(rs, a) and skills.tagged(rs, a, "no_counterattack") is None


def opportunity_weapon(rs, a: Actor) -> dict | None:
    """BAT-38 "um inimigo que esteja empunhando uma arma corpo a corpo": the melee weapon it wields for an
    opportunity attack -- natural weapons (claws, talons, bite) count; bare hands (``unarmed``: nothing held, or
    held again after a disarm) do not, unless the option ``unarmed_opportunity`` says they do."""
    w = melee_weapon(rs, a)
    if w is None or (w["name"] == "unarmed" and not rs.opt("unarmed_opportunity")):
        return None
    return w


def in_reach(rs, session, a: Actor, t: Actor, w: dict | None = None, at=None) -> bool:
    """Melee reach (AIR-05); a rider reaches from, and is reached at, its mount's whole body (BAT-42)."""
    w = w or melee_weapon(rs, a) or {"reach_m": a.data["reach_m"]}
    ab = mounts.body_of(rs, session, a).body() if at is None else a.body().moved(*at)
    tb = mounts.body_of(rs, session, t).body()
    return in_melee_reach(ab, tb, reach_of(rs, a, w), session.world.cell_m)


def cover(rs, session, a: Actor, t: Actor, at=None, t_at=None):
    ab = a.body() if at is None else a.body().moved(*at)
    tb = t.body() if t_at is None else t.body().moved(*t_at)
    key = ("bcover", ab, tb)
    c = session.cache.get(key)
    if c is None:
        c = cover_between(session.world, ab, tb, cover_levels("baton"), session.options.get("cover_thresholds"))
        session.cache[key] = c
    return c


def provokers(rs, session, body: Actor, path) -> list:
    out = []
    for e in session.state.actors.values():
        if e.side == body.side or not can_counter(rs, e) or e.id == body.id:
            continue
        if riding.rider_id(body) == e.id:
            continue
        w = opportunity_weapon(rs, e)                     # BAT-38: only an enemy wielding a melee weapon
        if w is None:
            continue
        if not in_reach(rs, session, e, body, w):
            continue
        if any(not in_melee_reach(e.body(), body.body().moved(*p), reach_of(rs, e, w), session.world.cell_m) for p in path[1:]):
            out.append(e)
    return out

# -- attacks ---------------------------------------------------------------------------------------
def pick_weapon(rs, a: Actor, name: str | None, key="weapon") -> dict:
    if name is None:
        return main_weapon(rs, a)
    for w in a.data["weapons"]:
        if w["name"] == name:
            if name != "unarmed" and name not in a.data["equipped"] and a.data.get("pc", True) and hands_matter(rs, a):
                raise Illegal(f"{a.name} does not hold its {name} (equip it: a minor action)", "BAT-05", key)
            return w
    raise Illegal(f"{a.name} has no {name}; its weapons: {', '.join(w['name'] for w in a.data['weapons'])}", "BAT-12", key)


def attack_plan(rs, session, a: Actor, t: Actor, w: dict, key="target") -> dict:
    cell = session.world.cell_m
    if is_melee(rs, w):
        if not in_reach(rs, session, a, t, w):
            raise Illegal(f"{t.name} is not within reach of {a.name}'s {w['name']} "
                          f"({distance_m(a.body(), t.body(), cell):.1f} m away, {abs(a.layer - t.layer)} layers apart)",
                          "BAT-12", key)
        return {"melee": True}
    d = distance_m(a.body(), t.body(), cell)
    if d > w["range_m"] + 1e-9:
        raise Illegal(f"{t.name} is {d:.1f} m away; {a.name}'s {w['name']} reaches {w['range_m']:g} m", "BAT-12", key)
    c = cover(rs, session, a, t)
    if c.level == "total":
        raise Illegal(f"{t.name} is behind total cover from {a.name}: a ranged attack needs line of sight", "BAT-41", key)
    return {"melee": False, "cover": c.level, "blocked_fraction": round(c.blocked_fraction, 4)}


def attack_chances(rs, session, a: Actor, t: Actor, w: dict, melee: bool) -> tuple[list, list]:
    pos, neg = [], []
    pos += skills.exposed_to(rs, session, t, a)                                    # BAT-59
    if skills.unaware(rs, session, t):
        pos.append(["sneak attack: unaware target", "BAT-37"])
    if riding.rides(a):
        pos.append(["mounted: elevated position", "BAT-42"])                  # BAT-42 -> BAT-44
    elif not rs.opt("air17_overrides_elevation") and a.layer - t.layer >= int(rs.opt("elevation_layers")):
        pos.append(["elevated position", "BAT-44"])
    if outnumbered(rs, session, a, t):
        pos.append(["numerical advantage", "BAT-45"])
    for o in session.state.data["opportunity"]:
        if o["target"] == t.id and o["side"] == a.side and not o.get("used"):
            pos.append(["opportunity created", "BAT-15"])
            break
    if not melee:
        c = cover(rs, session, a, t)
        if c.level == "partial":
            neg.append(["partial cover", "BAT-40"])
    return pos, neg


def defence_of(rs, session, t: Actor, melee: bool, choice: str | None) -> tuple[str, int]:
    """BAT-14: Dodge against melee, Shield (with a shield) against any physical attack; creatures' Defence;
    a rider adds its mount's Defence (BAT-42)."""
    choice = choice or t.data["defence"] or "best"
    opts = []
    if melee:
        opts.append(("dodge", skills.attr(rs, t, "dodge")))
    if t.data["has_shield"]:
        opts.append(("shield", skills.attr(rs, t, "shield")))
    if "defence" in t.data["skills"]:
        opts.append(("defence", skills.attr(rs, t, "defence")))
    if choice == "none" or not opts:
        name, v = "none", 0
    elif choice == "best":
        name, v = max(opts, key=lambda o: o[1])
    else:
        got = [o for o in opts if o[0] == choice]
        name, v = got[0] if got else max(opts, key=lambda o: o[1])
    if riding.rides(t):
        m = riding.mount_of(session, t)
        v += skills.attr(rs, m, "defence")
        name += "+mount"
    return name, max(0, v)


def resolve_attack(rs, session, a: Actor, t: Actor, w: dict, ctx: dict) -> dict | None:
    """One attack (BAT-12): the test, the damage with the scale, criticals, sneak attacks, two weapons, the
    fall roll of a flyer hit (AIR-11), the counterattack (BAT-13)."""
    if a.dead or t.dead:
        return None
    melee = is_melee(rs, w)
    counter = ctx.get("counter", False)
    rule = ctx.get("rule", "BAT-12")
    pos, neg = attack_chances(rs, session, a, t, w, melee)
    sneak = skills.unaware(rs, session, t)
    helpless = t.has("helpless")
    dname, difficulty = _difficulty(rs, session, a, t, melee, ctx, sneak and not melee, counter or helpless)
    skill, lv = skills.weapon_skill(rs, a, w)
    ev = _attack_test(rs, session, a, t, w, ctx, (skill, lv, difficulty), pos, neg, helpless)
    cov = cover(rs, session, a, t).level if not melee else "none"
    rules = sorted({r for _, r in pos + neg} | {rule})
    session.emit({"type": "attack", "who": a.id, "target": t.id, "weapon": w["name"], "melee": melee,
                  "counter": counter, "defence": dname, "difficulty": difficulty, "hit": bool(ev["success"]),
                  "critical": bool(ev["critical"]), "roll": ev["kept"], "bonus": lv, "total": ev["total"],
                  "ac": difficulty, "cover": cov, "cover_bonus": 0, "level": ev["level"],
                  "advantage": [p[0] for p in pos], "disadvantage": [n[0] for n in neg] if ev.get("auto") and "dice" not in ev else
                  [n[0] for n in neg + skills.negatives(rs, a, skill, True)], "rules": rules, "rule": rule})
    for o in session.state.data["opportunity"]:
        if o["target"] == t.id and o["side"] == a.side and not o.get("used"):
            o["used"] = True
            break
    second = None if counter else _second_weapon(rs, session, a, w)
    if not ev["success"]:
        session.emit({"type": "miss", "who": a.id, "target": t.id, "rule": rule})
    else:
        _hit(rs, session, a, t, w, ctx, ev, second, (sneak, helpless, counter))
    # BAT-13: a counterattack never triggers another
    if not counter and not t.dead and not a.dead and t.data["counterattack"] and can_counter(rs, t):
        tw = melee_weapon(rs, t)
        if tw is not None and in_reach(rs, session, t, a, tw):
            session.emit({"type": "counterattack", "who": t.id, "target": a.id, "rule": "BAT-13"})
            resolve_attack(rs, session, t, a, tw, {"counter": True, "rule": "BAT-13"})
    return ev


def _difficulty(rs, session, a: Actor, t: Actor, melee: bool, ctx: dict, ranged_sneak: bool, no_choice: bool):
    """(defence name, difficulty) of an attack on ``t``: the defender chooses its defence (BAT-14's choice point)
    unless the attack is a counterattack, on a helpless target or a ranged sneak attack (``no_choice``,
    ``ranged_sneak``); a ranged sneak attack is against 7 (BAT-37)."""
    dchoice = ctx.get("defence")
    if not no_choice and not ranged_sneak:
        dchoice = CHOICE.choose_defence(rs, session, a, t, melee)           # BAT-14: the defender's choice point
    dname, dval = defence_of(rs, session, t, melee, dchoice)
    if ranged_sneak:
        return "none (sneak attack)", 7                                      # BAT-37 ranged
    return dname, int(rs.opt("base_difficulty")) + dval


def _attack_test(rs, session, a: Actor, t: Actor, w: dict, ctx: dict, test: tuple, pos, neg, helpless: bool) -> dict:
    """The attack's skill test (``test``: skill, level, difficulty), or on a helpless target BAT-37's: a hit, by
    a test whose die still reads for the baton, or in the old reading (``helpless_test = "none"``) no die at all."""
    skill, lv, difficulty = test
    rule = ctx.get("rule", "BAT-12")
    if helpless and rs.opt("helpless_test") == "none":                      # BAT-37 the old reading
        session.emit({"type": "test", "who": a.id, "skill": skill, "auto": True, "success": True,
                      "critical": True, "rule": "BAT-37", "purpose": "attack against a helpless target",
                      "difficulty": difficulty})
        # no die rolled: the side loses the initiative (BAT-09)
        return {"success": True, "critical": True, "kept": 12, "total": 12 + lv, "level": 1, "auto": True}
    if helpless:             # BAT-37 always hits, yet it is a skill test: its die reads for the baton (BAT-08)
        return skills.skill_test(rs, session, a, skill, difficulty, "BAT-37", f"attack helpless {t.id} with {w['name']}",
                                 pos, neg, major=ctx.get("major", False), attack=True, level=lv, auto=True)
    return skills.skill_test(rs, session, a, skill, difficulty, rule, f"attack {t.id} with {w['name']}", pos, neg,
                             major=ctx.get("major", False), attack=True, level=lv)


def _second_weapon(rs, session, a: Actor, w: dict) -> dict | None:
    """BAT-43: attacking with the first of two weapons in hand (no shield), the second strikes too; a medium or
    large one among them leaves the attacker exposed until its next turn."""
    eq = equipped(rs, a)
    if len(eq) != 2 or any(x["name"] == "shield" for x in eq) or w is not eq[0]:
        return None
    if any(x["size"] in ("medium", "large") for x in eq):
        skills.add_condition(rs, session, a, "exposed", "BAT-43", "until_next_turn")
    return eq[1]


def _hit(rs, session, a: Actor, t: Actor, w: dict, ctx: dict, ev: dict, second: dict | None, how: tuple) -> None:
    """A hit's damage: the weapon's dice shifted by the scale, the critical's maximum (or a PC's destiny point,
    BAT-36), physique, the second weapon (BAT-43); then the damage, and a flyer still aloft rolls to fall (AIR-11).
    ``how``: (sneak attack, helpless target, counterattack)."""
    sneak, helpless, counter = how
    rule = ctx.get("rule", "BAT-12")
    expr = bd.shift(w["damage"], int(ctx.get("scale", 0)), rs.opt("damage_scale"))
    rolls = session.roll("damage", *skills.dice_of(rs, expr), who=a.id, rule=rule, purpose=f"{w['name']} damage") \
        if bd.parse(expr)[0] and not helpless else []
    _n, _sides, bonus = bd.parse(expr)
    base = sum(rolls) + bonus
    divine = divine_vs_undead(rs, t, w)
    crit = ev["critical"] or sneak or helpless or divine
    why_crit = "critical success" if ev["critical"] else ("sneak attack" if sneak else ("helpless" if helpless else "divine vs undead"))
    if helpless:
        base = bd.maximum(expr)
    extra = 0
    if crit:
        pc = a.data["pc"]
        # BAT-36's choice point; not where the critical is the rule's own (sneak, helpless, BAT-52 divine)
        if pc and ev["critical"] and not sneak and not helpless and not divine and \
                CHOICE.choose_crit(rs, session, a, expr, ev["kept"], counter) == "destiny":
            d = session.state.data["destiny"]
            d[a.side] = d.get(a.side, 0) + 1
            session.emit({"type": "destiny", "side": a.side, "who": a.id, "points": d[a.side], "rule": "BAT-36"})
        else:
            extra = bd.maximum(expr)                                          # BAT-36
    phys = a.data["attributes"].get("physique", 0) if (rs.opt("physique_bonus") and w["size"] in ("medium", "large")) else 0
    sec = _second_damage(rs, session, a, second, helpless)
    total = max(0, base + extra + phys + sec)
    session.emit({"type": "hit", "who": a.id, "target": t.id, "damage": total, "dice": expr, "rolled": base,
                  "critical_extra": extra, "physique_bonus": phys, "second_weapon": sec,
                  "scale_steps": int(ctx.get("scale", 0)), "critical": crit,
                  **({"critical_why": why_crit} if crit else {}), "rule": rule})
    was_flying = t.flying
    rs.apply_damage(session, t, total, w.get("type", "blunt"), a.id, rule, critical=crit)
    if was_flying and t.flying and not t.dead:
        aerial.fall_roll(session, t)                                          # AIR-11: a successful attack


def _second_damage(rs, session, a: Actor, second: dict | None, helpless: bool) -> int:
    """BAT-43: the second weapon's damage, added once (BAT-36); against a helpless target its maximum, BAT-37 "causa
    o máximo de dano possível" -- not rolled."""
    if second is None:
        return 0
    if helpless:
        return bd.maximum(second["damage"])                                  # BAT-37
    (sn, ss, sb) = bd.parse(second["damage"])
    srolls = session.roll("damage", ss, sn, who=a.id, rule="BAT-43", purpose=f"second weapon {second['name']}") if sn else []
    return sum(srolls) + sb


def divine_vs_undead(rs, t: Actor, w: dict) -> bool:
    """BAT-52 "Dano divino é sempre considerado um dano crítico contra mortos-vivos": the critical damage (BAT-36's
    extra) always applies, so a PC's natural 12 cannot trade it for a Destiny point."""
    return bool(t.data["undead"]) and w.get("type") == "divine"


def terrain_at(rs, session, body: Actor, x, y, z) -> str | None:
    w = session.world
    mats = w.materials
    X, Y, Z = w.size
    for i in range(body.footprint):
        for j in range(body.footprint):
            for zz in (z, z - 1):
                if 0 <= x + i < X and 0 <= y + j < Y and 0 <= zz < Z:
                    m = mats[int(w.voxels[zz, y + j, x + i])]
                    if m.terrain and (zz == z - 1 or not m.solid):
                        return m.terrain
    return None


def hands_matter(rs, a: Actor) -> bool:
    return True


def outnumbered(rs, session, a: Actor, t: Actor) -> bool:
    for o in session.state.actors.values():
        if o.id in (a.id, t.id) or o.side == t.side or not initiative.able(rs, o) or riding.carries(o) and False:
            continue
        w = melee_weapon(rs, o)
        if w is not None and in_reach(rs, session, o, t, w):
            return True
    return False


def mean_hit_damage(rs, a: Actor, plan: dict) -> float:
    """BAT-12: the mean damage of one successful attack as resolve adds it -- the weapon's dice and bonus, the
    physique bonus of a medium or large weapon; criticals (BAT-36), a second weapon (BAT-43) and the damage scale
    of a high success, which depend on the dice, are left out."""
    w = pick_weapon(rs, a, plan["weapon"])
    n, sides, bonus = bd.parse(w["damage"])
    phys = a.data["attributes"].get("physique", 0) if (rs.opt("physique_bonus") and w["size"] in ("medium", "large")) else 0
    return max(0.0, n * (sides + 1) / 2 + bonus + phys)


def attack_preview(rs, session, a: Actor, act: dict, plan: dict) -> dict:
    """What an attack would do, in baton terms: the difficulty and what it is made of, the chances, the
    chance to succeed, what the die means for the baton (BAT-00, BAT-08/09, BAT-14, BAT-37)."""
    t = session.state.actors[plan["target"]]
    w = pick_weapon(rs, a, plan["weapon"])
    pos, neg = attack_chances(rs, session, a, t, w, plan["melee"])
    neg = neg + skills.negatives(rs, a, "attack", True)
    dname, dval = defence_of(rs, session, t, plan["melee"], act.get("defence"))
    diff = int(rs.opt("base_difficulty")) + dval
    made = f"{int(rs.opt('base_difficulty'))} + {dname} {dval}"
    if skills.unaware(rs, session, t) and not plan["melee"]:
        diff, dname, made = 7, "none (sneak attack)", "7, the defence ignored (BAT-37)"
    _, lv = skills.weapon_skill(rs, a, w)
    net = max(-int(rs.opt("chance_cap")), min(int(rs.opt("chance_cap")), len(pos) - len(neg)))
    need = diff - lv                                   # the d12 must show at least this
    lo, hi = (1 / 12, 11 / 12) if rs.opt("criticals_decide") else (0.0, 1.0)
    p1 = min(hi, max(lo, (13 - need) / 12.0))
    p = 1 - (1 - p1) ** (1 + net) if net > 0 else (p1 ** (1 - net) if net < 0 else p1)
    helpless = t.has("helpless")
    if helpless:
        p = 1.0
    cover = plan.get("cover", "none")
    lines = [f"{w['name']} ({'melee' if plan['melee'] else 'ranged'}) at {t.name}: d12 + {lv} against "
             f"difficulty {diff} ({made})"]
    if pos or neg:
        keep = "highest" if net > 0 else ("lowest" if net < 0 else "first")
        lines.append("chances: " + ", ".join([f"+{x[0]} ({x[1]})" for x in pos] + [f"-{x[0]} ({x[1]})" for x in neg])
                     + f" -> {1 + abs(net)} d12, keep the {keep}")
    else:
        lines.append("chances: none (one d12)")
    lines.append(f"chance to succeed: {p:.0%}" + (" (helpless: always hits, critical, maximum damage, BAT-37)"
                                                  if helpless else ""))
    if not plan["melee"]:
        lines.append(f"cover: {cover}" + (" (a negative chance, BAT-40)" if cover not in ("none", "total") else ""))
    if t.flying:
        lines.append("a hit makes the flyer roll to fall (AIR-11)")
    lines.append("the kept die decides the baton: even keeps it for the side (BAT-08), odd loses it (BAT-09)")
    return {"target": t.id, "weapon": w["name"], "melee": plan["melee"], "cover": cover,
            "difficulty": diff, "defence": dname, "skill_level": lv, "positive": pos, "negative": neg,
            "chances": net, "hit_chance": round(p, 4), "height": "no bonus for height (AIR-17)",
            "fall_roll_on_hit": t.flying, "lines": lines}


def pass_lines(rs, session, a: Actor, ids: list, plan: dict) -> list:
    die = session.state.turn.get("test_die")
    names = ", ".join(session.state.actors[i].name for i in ids)
    if a.has("confused"):
        why = "confused: it always passes to an ally (BAT-58)"
    elif die is None:
        why = "no skill test in the major action: the initiative goes to the opponents (BAT-09)"
    elif die % 2 == 0:
        why = f"test die {die}, even: the side keeps the initiative (BAT-08)"
    else:
        why = f"test die {die}, odd: the initiative goes to the opponents (BAT-09)"
    return [why, f"may receive the baton: {names}"]


def manoeuvre(rs, session, a, t, what) -> dict:
    slots.use_slot(rs, session, "major", what)
    skill, _ = skills.best(rs, a, "physique", "fight_unarmed")
    _, dv = skills.best(rs, t, "physique", "fight_unarmed", "dodge")
    return skills.skill_test(rs, session, a, skill, 7 + dv, "BAT-34", f"{what} {t.id}", major=True)


def ground_item(rs, session, a, name):
    for i, it in enumerate(session.state.data["ground_items"]):
        if it["name"] == name and cell_gap(a.body(), Body(it["at"][0], it["at"][1], it["at"][2], 1, 1, 0.5)) <= 1 \
                and abs(it["at"][2] - a.layer) <= 1:
            return i
    return None


COMBAT.provide(in_reach)
