"""The players' choices the document gives (functions taking the ruleset ``rs``): each one is an action parameter with a default,
offered by ``legal_actions`` as a variant of the action and described by ``preview``'s ``choices`` (what each
option does), so a menu, a prompt and an automatic player all see it.

* ``crit`` (attack, charge, drop): a PC's natural 12 -- ``"damage"`` (default) or ``"destiny"`` (BAT-36). It is
  given with the attack and read only when the kept die is a natural 12: nothing random comes between the
  critical and the choice, so choosing beforehand for that case is choosing after seeing it.
* ``counter_crit`` (attack, charge, drop, move): ``{id = "damage" | "destiny"}`` -- BAT-36 for a PC whose
  counterattack (BAT-13), opportunity attack (BAT-38) or shot on one leaving cover (BAT-41) this action sets off
  rolls a natural 12; default damage.
* ``defence`` (attack, charge, drop): the defender's resistance -- ``"dodge"`` (melee only), ``"shield"`` (any
  physical attack, with a shield), ``"defence"`` (a creature's), ``"none"``; default the character's ``defence``
  key, else ``"best"`` (BAT-14, "Defendendo-se": "o personagem pode oferecer resistência").
* ``declined`` (move): the enemies who let the mover go without their immediate attack -- an opportunity attack
  (BAT-38) or leaving total cover (BAT-41); default ``[]`` (everyone entitled attacks).
* ``fall_test`` (drop with ``attack``): ``"attack"`` (default: the attack's total replaces the Agility test,
  BAT-48 "ele pode usar o resultado da rolagem de ataque") or ``"agility"`` (make the Agility test, BAT-47).
* ``effect`` (grab, trip, push): the manoeuvre's effect, chosen once its test succeeds (BAT-34 "Se for
  bem-sucedido, o personagem escolhe um dos efeitos abaixo"); default the action's own; no grab of one already held.
* ``open_with`` (an action): who opens the initiative when the scene does not say (BAT-02 "um PJ que não esteja
  surpreendido, à escolha dos jogadores"): the default holder may hand the opening to another candidate before
  anything is done.
* ``create_opportunity`` with ``effect = "stated"``: the GM states the effect (``text``) and the ``difficulty``;
  the test keeps or loses the baton like any other (BAT-15, BAT-08/09).
"""

from __future__ import annotations

from engine.rules.baton.upcalls import CHOICE
from engine.rules.baton import baton_order, combat, leave_cover, mounts
from engine.rules.choices import MISSING, choose, given
from engine.rules.actions import Param, Unit
from engine.rules.baton.actions import action
from engine.rules.core import Actor, Illegal
from engine.rules.baton import dice as bd
from engine.rules.choices import Point

DEFENCES = ("dodge", "shield", "defence", "none")

P = Param


# ---------------------------------------------------------------------------------------- BAT-02
def opening_candidates(rs, session) -> list:
    """Who may open the initiative now instead of the default holder (BAT-02): only at the very start of
    the combat, when the scene does not name ``initiative_starts``, and before the holder has done anything."""
    return baton_order.memoised(("open",), lambda: _opening_candidates(rs, session))


def _opening_candidates(rs, session) -> list:
    st = session.state
    d = st.data
    if (session.scene.spec.initiative_starts or not baton_order.in_combat(rs, session) or d.get("activations") != 1
            or d.get("opening_chosen")):
        return []
    h = baton_order.holder(rs, session)
    t = st.turn
    if h is None or t.get("major") or t.get("minor") or t.get("moved_m") or t.get("move_used"):
        return []
    pcs = [a for a in st.actors.values() if a.data["pc"] and baton_order.able(rs, a)]
    awake = [a for a in pcs if not a.data["surprised"]]
    if awake:
        pool = awake
    else:                       # every PC surprised: an opponent, chosen by the GM
        pool = [a for a in st.actors.values() if baton_order.can_hold(rs, a, session) and not a.data["pc"]
                and not a.data["surprised"] and a.side == h.side]
    return [a.id for a in pool if a.id != h.id and a.side == h.side]


def check_open_with(rs, session, a: Actor, act: dict) -> dict:
    ids = opening_candidates(rs, session)
    if not ids:
        raise Illegal("the opening of the initiative can be changed only at the start of a combat whose scene "
                      "does not name initiative_starts, before anything is done", "BAT-02", "to")
    if act["to"] not in baton_order.memoised(("open set",), lambda: frozenset(ids)):
        raise Illegal(f"{act['to']} cannot open the initiative: a non-surprised PC chosen by the players opens it "
                      f"(here: {', '.join(ids)})", "BAT-02", "to")
    return {"to": act["to"]}


def apply_open_with(rs, session, a: Actor, act: dict, plan: dict) -> None:
    d = session.state.data
    for k in ("acted", "acted_turn"):
        if a.id in d[k]:
            d[k].remove(a.id)
    d["activations"] -= 1
    d["opening_chosen"] = True
    session.emit({"type": "opens_with", "who": a.id, "to": plan["to"], "rule": "BAT-02"})
    baton_order.give_baton(rs, session, plan["to"], "BAT-02", False, "starts")

# ---------------------------------------------------------------------------------------- choice points
def choose_defence(rs, session, a: Actor, t: Actor, melee: bool) -> str | None:
    """BAT-14 "Defendendo-se": the defender chooses its resistance when the attack comes (choice point
    ``defence``; default its ``defence`` key, else the best)."""
    opts = {}
    for o in defence_options(rs, t, melee):
        dn, dv = combat.defence_of(rs, session, t, melee, o)
        opts[o] = f"difficulty {int(rs.opt('base_difficulty')) + dv} ({dn})"
    best = combat.defence_of(rs, session, t, melee, None)[0].replace("+mount", "")
    dflt = t.data["defence"] or None
    shown = dflt if dflt in opts else (best if best in opts else dflt)   # the option the prompt marks and highlights
    v = choose(session, "defence", t.id, opts, shown, rule="BAT-14", role="defender",
               labels={"none": "No resistance"},
               question=f"{a.name} attacks {t.name}: resist with" + (f" (default {shown})" if shown in opts else ""))
    if v == shown and given(session, ("defence",)) is MISSING:
        return dflt             # not answered: the rules' default, which is what the marked option gives
    return v


#: BAT-36 for the counterattacks (BAT-13) and opportunity attacks (BAT-38, BAT-41) an action sets off
COUNTER_CRIT = Param("any", help='a PC answering at once with a natural 12: {id = "damage" | "destiny"} (BAT-36)')


def choose_crit(rs, session, a: Actor, expr: str, kept: int, counter: bool = False) -> str:
    """BAT-36: a PC's natural 12, chosen once the critical is seen (choice point ``crit``, default damage); on an
    attack made in answer during another's action (a counterattack, BAT-13; an opportunity attack, BAT-38 "é
    considerado um contra-ataque"; the shot on leaving cover, BAT-41) the point is ``counter_crit.<id>``."""
    pts = session.state.data["destiny"].get(a.side, 0)
    return choose(session, ("counter_crit", a.id) if counter else "crit", a.id,
                  {"damage": f"+{bd.maximum(expr)} damage (the weapon's maximum)",
                   "destiny": f"+1 Destiny point for {a.side} (now {pts})"}, "damage", rule="BAT-36",
                  role="attacker", question=f"{a.name} rolled a natural {kept}: a critical success")


def check_counter_crit(rs, session, act: dict) -> None:
    """``counter_crit``: a table of character ids, each "damage" or "destiny" (BAT-36)."""
    v = act["counter_crit"]
    if not isinstance(v, dict) or not all(isinstance(k, str) and x in ("damage", "destiny") for k, x in v.items()):
        raise Illegal('counter_crit is a table {id = "damage" | "destiny"} (BAT-36)', "BAT-36", "counter_crit")
    for k in v:
        if k not in session.state.actors:
            raise Illegal(f"no character {k!r}", "BAT-36", "counter_crit")


def choose_manoeuvre(rs, session, a: Actor, t: Actor, named: str, level: int) -> str:
    """BAT-34 "Se for bem-sucedido, o personagem escolhe um dos efeitos abaixo": chosen once the test has succeeded
    (choice point ``effect``, default the action named); no second grab of one already held."""
    cell = session.world.cell_m
    opts = {"grab": f"{t.name} is grappled", "trip": f"{t.name} is knocked prone",
            "push": f"{t.name} is pushed back {level // 2 * cell:g} m (1.5 m per 2 success levels; level {level})"}
    if a.id in t.conditions.get("grappled", []):
        opts.pop("grab")
    v = choose(session, "effect", a.id, opts, named, rule="BAT-34", role="attacker",
               question=f"{a.name}'s manoeuvre on {t.name} succeeds (level {level}): choose the effect")
    return v if v in opts else named


def choose_let_go(rs, session, e: Actor, mover: Actor, rule: str) -> bool:
    """BAT-38 / BAT-41: the enemy entitled to an immediate attack may decline (choice point ``declined``: the
    ids in the list let the mover go; default attack)."""
    what = "opportunity attack" if rule == "BAT-38" else "attack on leaving cover"
    v = choose(session, ("declined", e.id), e.id,
               {"attack": f"the {what} now (BAT-13 counterattack rules)", "let_go": f"let {mover.name} go"},
               "attack", rule=rule, role="immediate attack", member="let_go",
               name=f"declined.{e.id}" + ("" if rule == "BAT-38" else ".cover"),
               question=f"{mover.name} " + ("leaves your reach" if rule == "BAT-38" else "leaves total cover"))
    return v == "let_go"


def choose_fall_test(rs, session, a: Actor, total: int, sev: int) -> str:
    """BAT-48: the falling attacker keeps its attack's total or makes the Agility test (choice point
    ``fall_test``, default the attack's total), chosen once that total is known."""
    return choose(session, "fall_test", a.id,
                  {"attack": f"the attack's total {total} against {7 + sev}: "
                             + ("halves the wound" if total >= 7 + sev else "does not halve it"),
                   "agility": f"an Agility test against {7 + sev} halves a wound of {sev} (BAT-47)"},
                  "attack", rule="BAT-48", role="falling", question=f"{a.name} falls: a wound of {sev}")


def choose_fall_agility(rs, session, a: Actor, sev: int) -> str:
    """BAT-47: the faller's Agility test against 7 + severity halves the wound (choice point ``fall_test`` of a drop
    without an attack, default ``"agility"``: make it); ``"none"`` takes the whole wound without the test."""
    return choose(session, "fall_test", a.id,
                  {"agility": f"an Agility test against {7 + sev}: a success halves the wound of {sev} (BAT-47)",
                   "none": f"no test: the whole wound of {sev}"},
                  "agility", rule="BAT-47", role="falling", labels={"none": "No test"},
                  question=f"{a.name} falls: a wound of {sev}")


def table_question(rs, session):
    """BAT-02: who opens the initiative, when the scene does not say -- the players choose, before anything is
    done (the window asks; scripts use ``open_with``)."""
    ids = opening_candidates(rs, session)
    h = baton_order.holder(rs, session)
    if not ids or h is None:
        return None
    st = session.state
    opts = {h.id: f"{h.name} opens the initiative (the first non-surprised PC of the scene)"}
    opts.update({i: f"{st.actors[i].name} opens it instead" for i in ids})
    return ({"actor": h.id, "action": "open_with"},
            Point(("to",), h.id, opts, h.id, "BAT-02", "players",
                  "Who opens the initiative? (a PC who is not surprised, chosen by the players)"))

def gm_statement(rs, session, act: dict):
    """BAT-15: an open opportunity -- the GM states its effect and difficulty (the window's GM prompt)."""
    if act.get("action") != "create_opportunity":
        return None
    dflt = int(act.get("difficulty", rs.action_specs()["create_opportunity"]["difficulty"].default))
    return ({"effect": "stated"}, [("text", "the effect of this opportunity (BAT-15)", None),
                                   ("difficulty", "its difficulty", dflt)])


# ---------------------------------------------------------------------------------------- variants
def defence_options(rs, t: Actor, melee: bool) -> list:
    out = []
    if melee:
        out.append("dodge")
    if t.data["has_shield"]:
        out.append("shield")
    if "defence" in t.data["skills"]:
        out.append("defence")
    return out + ["none"]


def choice_variants(rs, session, cands: list) -> list:
    """Each candidate, then its variants with a non-default choice (kept only when legal, by the caller)."""
    st = session.state
    out = []
    more = []
    for c in cands:                  # a drop may end in an attack on any foe (BAT-48)
        if c["action"] == "drop" and not c.get("attack") and c["actor"] in st.actors:
            me = st.actors[c["actor"]]
            more += [{**c, "attack": o.id} for o in st.actors.values() if o.side != me.side and baton_order.able(rs, o)]
    for c in cands + more:
        out.append(c)
        act = c["action"]
        if act in ("attack", "charge") or (act == "drop" and c.get("attack")):
            who = st.actors.get(c["actor"])
            t = st.actors.get(c.get("target") or c.get("attack"))
            if who is None or t is None:
                continue
            try:
                w = combat.pick_weapon(rs, who, c.get("weapon"))
            except Illegal:
                continue
            if who.data["pc"] and not combat.divine_vs_undead(rs, t, w):   # BAT-52: no Destiny to trade it for
                out.append({**c, "crit": "destiny"})
            melee = combat.is_melee(rs, w)
            same = combat.defence_of(rs, session, t, melee, None)[0]       # what the default gives
            for opt in defence_options(rs, t, melee):
                if combat.defence_of(rs, session, t, melee, opt)[0] != same:   # only the options that change it
                    out.append({**c, "defence": opt})
            if act == "drop":
                out.append({**c, "fall_test": "agility"})
        elif act == "move" and not c.get("careful") and baton_order.in_combat(rs, session):
            body = mounts.body_of(rs, session, st.actors[c["actor"]])
            try:
                plan = rs.ACTIONS["move"].check(rs, session, st.actors[c["actor"]], {"to": c["to"]})
            except Illegal:
                continue
            prov = [e.id for e in combat.provokers(rs, session, body, plan["path"])]
            prov += [i for i in leave_cover.shooters(rs, session, st.actors[c["actor"]], body, plan["path"][-1])
                     if i not in prov]                     # BAT-41: the shots on leaving total cover
            if prov:
                out.append({**c, "declined": prov})
    return out


def declined(rs, session, act: dict) -> list:
    v = act.get("declined")
    if v is None:
        return []
    if not isinstance(v, list) or not all(isinstance(i, str) for i in v):
        raise Illegal("declined is a list of character ids (the enemies who let the mover go)", "BAT-38", "declined")
    for i in v:
        if i not in session.state.actors:
            raise Illegal(f"no character {i!r}", "BAT-38", "declined")
    return list(v)


def choices_of(rs, session, a: Actor, act: dict) -> dict:
    """For a preview: each choice the action carries, its options and what each does."""
    st = session.state
    out: dict[str, dict] = {}
    name = act["action"]
    if name in ("attack", "charge") or (name == "drop" and act.get("attack")):
        t = st.actors.get(act.get("target") or act.get("attack"))
        if t is None:
            return out
        w = combat.pick_weapon(rs, a, act.get("weapon"))
        melee = combat.is_melee(rs, w)
        if a.data["pc"] and not combat.divine_vs_undead(rs, t, w):     # BAT-52: always the extra damage
            mx = bd.maximum(w["damage"])
            pts = st.data["destiny"].get(a.side, 0)
            out["crit"] = {"default": "damage", "chosen": act.get("crit", "damage"), "rule": "BAT-36",
                           "options": {"damage": f"on a natural 12: +{mx} damage (the weapon's maximum)",
                                       "destiny": f"on a natural 12: +1 Destiny point for {a.side} (now {pts})"}}
        opts = {}
        for o in defence_options(rs, t, melee):
            dn, dv = combat.defence_of(rs, session, t, melee, o)
            opts[o] = f"difficulty {int(rs.opt('base_difficulty')) + dv} ({dn})"
        dflt = t.data["defence"] or "best"
        out["defence"] = {"default": dflt, "chosen": act.get("defence") or dflt, "rule": "BAT-14",
                          "by": t.id, "options": opts}
        if name == "drop":
            out["fall_test"] = {"default": "attack", "chosen": act.get("fall_test", "attack"), "rule": "BAT-48",
                                "options": {"attack": "the attack's total halves the fall wound if it reaches 7 + severity",
                                            "agility": "an Agility test against 7 + severity halves it (BAT-47)"}}
    elif name == "open_with":
        ids = opening_candidates(rs, session)
        out["to"] = {"default": a.id, "chosen": act.get("to"), "rule": "BAT-02",
                     "options": {a.id: "keeps the opening (the first non-surprised PC of the scene)",
                                 **{i: "opens the initiative instead" for i in ids}}}
    elif name == "move" and act.get("declined") is not None:
        out["declined"] = {"default": [], "chosen": act["declined"], "rule": "BAT-38",
                           "options": {"[]": "every enemy entitled attacks at once",
                                       "[ids]": "those enemies let the mover go"}}
    return out


@action
class OpenWith(Unit):
    """``open_with`` (``to``): the players hand the opening of the initiative to another non-surprised PC (BAT-02)."""

    name = "open_with"
    place = 9
    groups = {"start": 1}
    PARAMS = {"to": P("id", True, help="the non-surprised PC the players choose to open the initiative (BAT-02)")}

    @staticmethod
    def candidates(rs, session, a, ctx, item):
        return [{"actor": a.id, "action": "open_with", "to": i} for i in opening_candidates(rs, session)]

    @staticmethod
    def check(rs, session, a, act):
        return check_open_with(rs, session, a, act)

    @staticmethod
    def apply(rs, session, a, act, plan):
        apply_open_with(rs, session, a, act, plan)


CHOICE.provide(choose_crit, choose_defence)
