"""How the baton events read in the runner's log (``aerie run`` without ``--json``) and in the window's log:
``type -> line``. Events every ruleset shares (rolls, moves, upkeep...) are in ``engine.rules.runner.GENERIC_LINES``;
every event the baton emits reads here in the baton's own terms (chances, difficulty, Protection / Vigor / Life,
wounds), and ``"*"`` words any other event without raw JSON (tests/rules/baton/test_baton_text.py checks every demo scene)."""

from __future__ import annotations

from engine.rules.lines import say


def _names(session, ids) -> str:
    out = []
    for i in ids or []:
        a = session.state.actors.get(i)
        out.append(a.name if a else str(i))
    return ", ".join(out)


def _test(session, e, n, r):
    ch = ""
    if e.get("positive") or e.get("negative"):
        ch = "; chances: " + ", ".join([f"+{p[0]}" for p in e.get("positive", [])] +
                                       [f"-{q[0]}" for q in e.get("negative", [])])
    if e.get("auto") and "dice" not in e:
        return f"    {n('who')} {e['skill'].replace('_', ' ')}: always succeeds ({e['purpose']}), no die{r}"
    res = ("critical success" if e.get("critical") else "critical failure" if e.get("critical_failure")
           else "success" if e["success"] else "failure")
    if e.get("auto"):
        res = "always hits (helpless), critical"
    lvl = f", level {e['level']}" if e["success"] else ""
    return (f"    {n('who')} tests {e['skill'].replace('_', ' ')} for {e['purpose']}: d12 {e['kept']}"
            f"{' (of ' + ', '.join(map(str, e['dice'])) + ')' if len(e['dice']) > 1 else ''} + {e['skill_level']}"
            f" = {e['total']} vs difficulty {e['difficulty']}: {res}{lvl}{ch}{r}")


def _attack(session, e, n, r):
    res = "critical success" if e["critical"] else ("hits" if e["hit"] else "misses")
    pos = f"; positive chances: {', '.join(e['advantage'])}" if e.get("advantage") else ""
    neg = f"; negative chances: {', '.join(e['disadvantage'])}" if e.get("disadvantage") else ""
    cov = f", {e['cover']} cover" if e.get("cover") not in (None, "none") else ""
    kind = "counterattacks" if e.get("counter") else "attacks"
    roll = e.get("roll")
    dice = f"d12 {roll} + {e['bonus']} = {e['total']}" if roll is not None else "no die"
    return (f"{n('who')} {kind} {n('target')} with {e['weapon']}: {dice} vs difficulty {e['difficulty']} "
            f"({e.get('defence') or 'no defence'}){cov}: {res}{pos}{neg} [{', '.join(e['rules'])}]")


#: what a hit's damage is made of beyond the dice: (event field, how it reads), in the order the line gives them
HIT_PARTS = (("physique_bonus", "+{} Physique"), ("second_weapon", "+{} second weapon"), ("critical_extra", "+{} critical"),
             ("scale_steps", "{:+d} on the damage scale"))


def _hit(session, e, n, r):
    extra = [f"rolled {e['rolled']} on {e['dice']}"] + [how.format(e[k]) for k, how in HIT_PARTS if e.get(k)]
    why = f" ({e['critical_why']})" if e.get("critical_why") and e.get("critical") else ""
    return f"{n('who')} hits {n('target')} for {e['damage']}{why} ({', '.join(extra)}){r}"


def _damage(session, e, n, r):
    parts = []
    if e.get("protection_absorbed"):
        parts.append(f"Protection takes {e['protection_absorbed']}")
    if e.get("vigor_absorbed"):
        parts.append(f"Vigor takes {e['vigor_absorbed']}")
    if e.get("wound"):
        parts.append(f"a {e.get('wound_category', '')} wound of {e['wound']}".replace("a  ", "a "))
    how = "; ".join(parts) or "nothing gets through"
    a = session.state.actors.get(e.get("who"))
    life = f"/{a.max_hp}" if a is not None else ""
    return (f"{n('who')} takes {e['amount']} {e['damage_type']}: {how} -> Protection {e['protection']}, "
            f"Vigor {e['vigor']}, Life {e['life']}{life}{r}")


def _fall(session, e, n, r):
    rules = ", ".join(dict.fromkeys(x for x in (e.get("rule"), e.get("damage_rule")) if x))
    dmg = f"a wound of {e['damage']}" if e.get("damage") else "no wound"
    if e.get("percent") is not None:
        dmg = f"{e['percent']}% of max Life = {dmg}"
    aside = f", beside {n('beside')} at {e['at']}" if e.get("beside") else ""
    return f"{n('who')} falls {e['layers']} layer(s) to layer {e['to']} ({e['cause']}{aside}): {dmg} [{rules}]"


def _baton(session, e, n, r):
    how = {"starts": "starts with it", "pass": "kept by the side" if e.get("kept") else "passed",
           "kept": "kept by the side", "auto": "passed on (the holder cannot act)",
           "confused": "passed by a confused character"}.get(e.get("how"), str(e.get("how")))
    return f"   baton -> {n('to')} ({e['side']}, turn {e['turn']}): {how}{r}"


def _pass(session, e, n, r):
    die = e.get("die")
    if e.get("auto") and e.get("reason"):
        why = e["reason"]
    elif e.get("rule") == "BAT-58":
        why = "confused: always to an ally"
    elif die is None:
        why = "no test in the major action: lost"
    else:
        why = f"die {die}, {'even: kept' if die % 2 == 0 else 'odd: lost'}"
    if e.get("note"):
        why += f"; {e['note']}"
    return f"{n('who')} passes the initiative to {n('to')} ({why}){r}"


def _wound_day(session, e, n, r):
    ch = e.get("change", 0)
    ch_s = "unchanged" if not ch else (f"worsens by {ch}" if ch > 0 else f"improves by {-ch}")
    rec = ", recovery test passed" if e.get("recovered") else ""
    return f"{n('who')}'s wound {e['wound']} ({e['category']}) {ch_s}: severity {e['severity']}{rec}{r}"


def _rest(session, e, n, r):
    if e.get("kind") == "short":
        return f"{n('who')} takes a short rest: +{e.get('gained', 0)} Vigor, Vigor {e['vigor']}{r}"
    return f"{n('who')} takes a long rest: Vigor {e['vigor']}{r}"


def _any(session, e, n, r):
    """Any other event: its words, never raw JSON."""
    bits = []
    for k, v in sorted(e.items()):
        if k in ("type", "who", "rule") or v is None or v == [] or v == {}:
            continue
        if isinstance(v, bool):
            v = "yes" if v else "no"
        elif isinstance(v, (list, tuple)):
            v = ", ".join(str(x) for x in v)
        elif isinstance(v, dict):
            v = ", ".join(f"{kk} {vv}" for kk, vv in sorted(v.items()))
        bits.append(f"{k.replace('_', ' ')} {v}")
    who = f"{n('who')} " if "who" in e else ""
    return f"{who}{str(e.get('type', 'event')).replace('_', ' ')}" + (f" ({'; '.join(bits)})" if bits else "") + r


def _at(p) -> str:
    return f"({p[0]}, {p[1]}, layer {p[2]})" if p else "?"


EVENT_LINES = {
    "*": _any,
    "test": _test,
    "attack": _attack,
    "hit": _hit,
    "miss": say("{@who} misses {@target}: no damage{r}"),
    "damage": _damage,
    "fall": _fall,
    "baton": _baton,
    "pass": _pass,
    "side_turn": say("== turn {turn}: the {side} side holds the initiative =={r}"),
    "combat_start": lambda session, e, n, r: f"== combat: {' against '.join(e['sides'])} =={r}",
    "combat_over": lambda session, e, n, r: f"== the fight is over: {e.get('winner') or 'nobody'} wins =={r}",
    "out_of_combat": lambda session, e, n, r: f"== out of combat ({', '.join(e.get('sides', []))}): rests, treatment and days =={r}",
    "unprotected": say("{@who} has no Protection left{r}"),
    "exhausted": say("{@who} has no Vigor left: further damage wounds{r}"),
    "protection_restored": say("{@who}'s Protection is restored to {protection}{r}"),
    "thrown": lambda session, e, n, r: f"{n('who')} is thrown from {n('mount')} ({e['why']}) at {_at(e.get('at'))}{r}",
    "shout": lambda session, e, n, r: f"{n('who')} shouts: \u201c{e.get('text', '')}\u201d{r}",
    "counterattack": say("{@who} counterattacks {@target}{r}"),
    "opportunity_attack": say("{@who} attacks {@target} at once as it leaves its reach{r}"),
    "exposed_leaving_cover": say("{@who} leaves total cover: {@by} shoots at once{r}"),
    "move_interrupted": lambda session, e, n, r: f"{n('who')}'s movement is cut short at {_at(e.get('at'))}{r}",
    "careful": say("{@who} moves carefully: half movement, no attacks for leaving reach{r}"),
    "dragged": lambda session, e, n, r: f"{n('who')} is dragged along by {n('by')} to {_at(e.get('to'))}{r}",
    "fall_halved": say("{@who}'s fall wound is halved by {by}: {severity}{r}"),
    "dismount": lambda session, e, n, r: f"{n('who')} dismounts {n('mount')} to {_at(e.get('to'))}{r}",
    "dash": say("{@who} dashes: +{extra_m:g} m of movement{r}"),
    "rest": _rest,
    "treat": lambda session, e, n, r: (f"{n('who')} treats {n('target')}'s wound {e['wound']} with a {e['kit']}: "
                                       f"{'it will evolve one category lower' if e['success'] else 'no effect'}{r}"),
    "time": lambda session, e, n, r: f"   time: day {e['day']}, {e['hour'] % 24}:00{r}",
    "day": say("== end of day {day}: wounds evolve =={r}"),
    "wound_day": _wound_day,
    "wound_worsens": say("{@who}'s wound {wound} worsens by {by}: severity {severity}{r}"),
    "wound_healed": lambda session, e, n, r: (f"{n('who')}'s wound {e['wound']} heals by {e['by']}"
                                              f"{' (magic)' if e.get('magical') else ''}{r}"),
    "effect_tick": lambda session, e, n, r: f"{n('who')} is affected by {e['effect'].replace('_', ' ')} this turn{r}",
    "effect_end": lambda session, e, n, r: f"{n('who')}'s {e['effect'].replace('_', ' ')} ends: {e['why']}{r}",
    "confused": say("{@who} is confused (d6 {result}): {does}{r}"),
    "destiny": say("{@who} takes a Destiny point: {side} has {points}{r}"),
    "critical": say("{@who}: a critical ({why}){r}"),
    "opportunity": lambda session, e, n, r: (f"{n('who')} creates an opportunity"
                                             f"{' against ' + n('target') if e.get('target') else ''}: {e['effect']}{r}"),
    "declines": say("{@who} lets {@target} go: no {what}{r}"),
    "opens_with": say("the players choose {@to} to open the initiative instead of {@who}{r}"),
    "disarmed": lambda session, e, n, r: (f"{n('who')} is disarmed by {n('by')}: the {e['weapon']} lands {e['cells']} "
                                          f"cell(s) away at {_at(e.get('lands'))}{r}"),
    "pushed": lambda session, e, n, r: f"{n('who')} is pushed {e['metres']:g} m by {n('by')} to {_at(e.get('to'))}{r}",
    "grapple_end": say("{@grabber} no longer holds {@target}{r}"),
    "poisoned": say("{@who} is poisoned ({kind}): the {effect} effect{r}"),
    "breath": say("{@who} holds its breath: {minutes} of {can_hold} minutes{r}"),
    "take_item": say("{@who} takes {item} from its {from}{r}"),
    "use_power": lambda session, e, n, r: (f"{n('who')} uses a {e['kind'].replace('_', ' ')}"
                                           f"{' on ' + n('target') if e.get('target') else ''} (its effect is the table's){r}"),
    "equip": say("{@who} takes up the {weapon} ({hand} hand){r}"),
    "stow": say("{@who} stows the {weapon}{r}"),
    "drop_item": lambda session, e, n, r: f"{n('who')} drops the {e['item']} at {_at(e.get('at'))}{r}",
    "pick_up": say("{@who} picks up the {item}{r}"),
    "drink": say("{@who} drinks a {potion} potion{r}"),
    "death": say("{@who} dies: {reason}{r}"),
}
