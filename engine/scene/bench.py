"""`aerie bench rules`: actions stepped per second in a 4-against-4 aerial skirmish with line of sight.

Each step: list the current actor's legal actions (``Session.legal_actions``: every reachable destination,
every attack with its cover computed from the line of sight...), pick one at random as the ``random`` policy of
``aerie simulate`` does (``engine.rules.legal.uniform``: uniformly among the kinds of action, then among that kind,
working out only the kinds it tries) and step it. Fights that end are restarted with the next seed. The figures:
steps per second for the whole loop (menus included) and for ``Session.step`` alone, and the same actions again
with every menu read whole before each step.
"""

from __future__ import annotations

import json
import random
import time

_SKIRMISH_HEAD = """
name = "Bench skirmish"
ruleset = "dnd5e"
seed = 1
[map]
size = [24, 24, 12]
fill = [
  { material = "stone", from = [6, 4, 0], to = [16, 4, 0] },
  { material = "stone", from = [4, 10, 0], to = [4, 18, 2] },
  { material = "roof", from = [14, 12, 0], to = [18, 16, 3] },
  { material = "brick", from = [9, 14, 0], to = [10, 15, 6] },
]
"""
#: the skirmish's eight characters, each one ``[[characters]]`` table (its keys in this order)
_SKIRMISHERS = (
    {"id": "archer1", "kind": "archer", "side": "red", "at": [10, 5, 0]},
    {"id": "archer2", "kind": "archer", "side": "red", "at": [15, 13, 4]},
    {"id": "knight", "kind": "knight", "side": "red", "at": [12, 8, 0]},
    {"id": "priest", "kind": "priest", "side": "red", "at": [8, 7, 0]},
    {"id": "harpy1", "kind": "harpy", "side": "blue", "flying": True, "at": [6, 18, 4]},
    {"id": "harpy2", "kind": "harpy", "side": "blue", "flying": True, "at": [12, 20, 6]},
    {"id": "eagle", "kind": "giant_eagle", "size": "large", "side": "blue", "flying": True, "at": [18, 19, 5]},
    {"id": "sky_archer", "kind": "scout", "side": "blue", "fly_speed_m": 12, "flying": True, "at": [20, 8, 3]},
)
SKIRMISH = _SKIRMISH_HEAD + "".join(
    "[[characters]]\n" + "".join(f"{k} = {json.dumps(v)}\n" for k, v in c.items()) for c in _SKIRMISHERS)


#: ``aerie bench rules --feats``: every character takes these (the feats without a prerequisite that act in combat)
BENCH_FEATS = ("sentinel", "mobile", "alert", "lucky", "savage_attacker", "great_weapon_master", "sharpshooter",
               "polearm_master", "crossbow_expert", "tough", "mage_slayer", "shield_master", "heavy_armor_master", "charger")


#: ``aerie bench rules --casters``: the priest and the sky archer each cast these 20 SRD spells (issue 39)
BENCH_SPELLS = ("fire-bolt", "sacred-flame", "ray-of-frost", "magic-missile", "cure-wounds", "healing-word",
                "guiding-bolt", "sleep", "hold-person", "scorching-ray", "shatter", "misty-step", "fireball",
                "lightning-bolt", "fly", "hold-monster", "cone-of-cold", "ice-storm", "flame-strike", "web")


def skirmish_scene(feats: bool = False, casters: bool = False):
    from engine.scene import parse_scene

    text = SKIRMISH
    if casters:
        book = "spells = [" + ", ".join(f'"{sp}"' for sp in BENCH_SPELLS) + "]\nlevel = 9\n"
        for who in ("priest", "sky_archer"):
            text = text.replace(f'id = "{who}"\n', f'id = "{who}"\n{book}')
    if feats:
        line = "feats = [" + ", ".join(f'"{f}"' for f in BENCH_FEATS) + "]"
        text = text.replace("[[characters]]\n", f"[[characters]]\n{line}\n")
    return parse_scene(text, "<bench skirmish>")


def random_action(session, rng: random.Random) -> dict | None:
    """A random legal action, uniformly among the kinds of action (``rng.choice(sorted(by_action()))``), then among
    that kind: the random player of ``tools/parity.py`` (its recorded games were made with these draws) and of the
    tests. ``engine.rules.legal.uniform`` draws from the same distribution working out less of the list."""
    acts = session.legal_actions()
    if not acts:
        return None
    if hasattr(acts, "by_action"):           # a LegalActions: the same groups, the moves left compact
        kinds = acts.by_action()
    else:
        kinds = {}
        for a in acts:
            kinds.setdefault(a["action"], []).append(a)
    k = rng.choice(sorted(kinds))
    return rng.choice(kinds[k])


def big_flyer_scene(size=(256, 256, 64)):
    """One flyer (``fly_speed_m = 1000``, flying at its fly speed: ``air_speed = "fly_speed"``) on a map with a
    2-voxel floor and a brick block, and one foe far away: its legal actions are every cell of the map it fits in."""
    from engine.scene import parse_scene

    X, Y, Z = size
    text = f"""
name = "Bench big flyer"
ruleset = "dnd5e"
seed = 1
[options]
air_speed = "fly_speed"
[map]
size = [{X}, {Y}, {Z}]
fill = [
  {{ material = "stone", from = [0, 0, 0], to = [{X - 1}, {Y - 1}, 1] }},
  {{ material = "brick", from = [{X // 2}, {Y // 2}, 2], to = [{X // 2 + X // 8}, {Y // 2 + Y // 8}, {Z // 2}] }},
]
[[characters]]
id = "roc"
kind = "scout"
side = "red"
fly_speed_m = 1000
flying = true
at = [2, 2, 6]
[[characters]]
id = "archer"
kind = "archer"
side = "blue"
at = [{X - 3}, {Y - 3}, 2]
"""
    return parse_scene(text, "<bench big flyer>")


def mass_scene_text(per_side: int, ruleset: str = "dnd5e") -> str:
    """A flat field, ``per_side`` fighters a side in ranks of 100 at either end (the mass-battle figure): 5e's
    knights with longswords, or baton's axe fighters (Physique 1, Agility 1, Fight with Axe 2, Dodge 1)."""
    width = 100
    rows = -(-per_side // width)
    size_y = 2 * rows + 20
    name = "Mass battle" if ruleset == "dnd5e" else "Mass baton"
    lines = [f'name = "{name}"', f'ruleset = "{ruleset}"', "seed = 1", "[map]", f"size = [{width}, {size_y}, 6]"]
    for side, y0, dy in (("red", 0, 1), ("blue", size_y - 1, -1)):
        for i in range(per_side):
            x, y = i % width, y0 + dy * (i // width)
            if ruleset == "dnd5e":
                body = ['kind = "knight"', f'side = "{side}"', f"at = [{x}, {y}, 0]", 'weapons = ["longsword"]']
            else:
                body = [f'side = "{side}"', f"at = [{x}, {y}, 0]", "attributes = { physique = 1, agility = 1 }",
                        "skills = { fight_axe = 2, dodge = 1 }", 'weapons = ["axe"]']
            lines += ["[[characters]]", f'id = "{side}{i}"'] + body
    return "\n".join(lines) + "\n"


def bench_listing(args) -> int:
    """``aerie bench rules --listing``: one legal-action list of the first actor of a mass battle of 3,000
    characters (1,500 a side; ``--quick`` 300), 5e's knights and baton's axe fighters side by side in the same run,
    three lists each (alternated), every entry made; the best of the three and baton / 5e."""
    from engine.rules.session import Session
    from engine.scene import parse_scene

    per_side = 150 if getattr(args, "quick", False) else 1500
    seed = int(getattr(args, "seed", 1) or 1)
    sessions = {r: Session(parse_scene(mass_scene_text(per_side, r), f"<mass {r}>"), seed) for r in ("dnd5e", "baton")}
    times: dict[str, list[float]] = {r: [] for r in sessions}
    cpu: dict[str, list[float]] = {r: [] for r in sessions}
    counts: dict[str, int] = {}
    for _ in range(3):
        for r, s in sessions.items():
            t0, c0 = time.perf_counter(), time.process_time()
            counts[r] = len(list(s.legal_actions(s.current)))
            times[r].append(time.perf_counter() - t0)
            cpu[r].append(time.process_time() - c0)
    best = {r: min(t) for r, t in times.items()}
    print(f"rules: one legal-action list in a mass battle of {2 * per_side:,} characters ({per_side:,} a side), "
          f"3 lists each, alternated")
    for r in sessions:
        print(f"  {r}: {counts[r]:,} actions in {best[r]:.3f} s wall (best; "
              f"{', '.join(f'{t:.3f}' for t in times[r])}), {min(cpu[r]):.3f} s CPU (best)")
    print(f"  baton / dnd5e {best['baton'] / best['dnd5e']:.2f} wall, {min(cpu['baton']) / min(cpu['dnd5e']):.2f} CPU")
    return 0


def bench_big_flyer(args) -> int:
    """Time one legal-action list of the big flyer and report the process's peak memory (ru_maxrss)."""
    import resource

    from engine.rules.session import Session

    size = (64, 64, 32) if getattr(args, "quick", False) else (256, 256, 64)
    scene = big_flyer_scene(size)
    s = Session(scene, int(getattr(args, "seed", 1) or 1))
    if s.current != "roc":
        s.step({"actor": s.current, "action": "end_turn"})
    scene.world.solid()
    scene.world.los_distance()
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t0 = time.perf_counter()
    acts = s.legal_actions()
    n = len(acts)
    t1 = time.perf_counter()
    moves = sum(1 for a in acts if a["action"] == "move")      # every entry read once, as a caller would
    t2 = time.perf_counter()
    rss1 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    X, Y, Z = size
    print(f"rules: a flyer with fly_speed_m = 1000 on a {X}x{Y}x{Z} map: {n:,} legal actions ({moves:,} moves), "
          f"listed in {t1 - t0:.2f} s, read one by one in {t2 - t1:.2f} s")
    print(f"  peak memory of the process {rss1 / 1024:,.0f} MiB ({rss0 / 1024:,.0f} MiB before the list)")
    return 0


def dragon_scene():
    """``aerie bench rules --dragon``: the skirmish's map, an adult red dragon (legendary actions, a recharging
    breath) against the skirmish's red side (two archers, a knight, a priest)."""
    from engine.scene import parse_scene

    reds = [c for c in _SKIRMISHERS if c["side"] == "red"]
    dragon = {"id": "dragon", "srd": "adult-red-dragon", "side": "blue", "flying": True, "at": [6, 16, 6]}
    text = _SKIRMISH_HEAD + "".join(
        "[[characters]]\n" + "".join(f"{k} = {json.dumps(v)}\n" for k, v in c.items()) for c in reds + [dragon])
    return parse_scene(text, "<bench dragon>")


def measure(scene, seed: int, budget_s: float) -> dict:
    """Random legal actions stepped for ``budget_s`` seconds (fights restarted with the next seed), then the same
    actions replayed from scratch, then again with every menu read whole before each step."""
    from engine.rules.legal import uniform
    from engine.rules.session import Session

    rng = random.Random(seed)
    session = Session(scene, seed)
    fights = [session]
    steps = 0
    step_time = 0.0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < budget_s:
        if session.state.over or session.state.round > 30:
            seed += 1
            session = Session(scene, seed)
            fights.append(session)
        act = uniform(session.legal_actions(), rng)        # the random policy of aerie simulate
        if act is None:
            seed += 1
            session = Session(scene, seed)
            fights.append(session)
            continue
        s0 = time.perf_counter()
        session.step(act)
        step_time += time.perf_counter() - s0
        steps += 1
    total = time.perf_counter() - t0
    # the same actions again, stepped from scratch with nothing cached by the menus: path searches, line of
    # sight, dice and all
    t1 = time.perf_counter()
    replayed = 0
    for f in fights:
        again = Session(scene, f.seed)
        for a in f.actions:
            again.step(a)
            replayed += 1
        assert again.fingerprint() == f.fingerprint()
    replay = time.perf_counter() - t1
    # and once more, every menu read whole before each step (every legal action made and checked, the moves searched
    # and kept compact, as ``by_action`` gives them): what a caller that reads the whole list pays
    full_list = full_step = 0.0
    for f in fights:
        again = Session(scene, f.seed)
        for a in f.actions:
            s0 = time.perf_counter()
            acts = again.legal_actions()
            for g in acts.by_action().values() if hasattr(acts, "by_action") else ():
                len(g)                                  # every kind worked out, the moves kept compact
            s1 = time.perf_counter()
            again.step(a)
            full_step += time.perf_counter() - s1
            full_list += s1 - s0
    kinds = sorted({a["action"] for f in fights for a in f.actions})
    fired: dict[str, int] = {}
    for f in fights:
        for e in f.events:
            rule = e.get("rule") if isinstance(e, dict) else None
            if isinstance(rule, str) and rule.startswith(("SRD-", "SPL-")) and e.get("type") != "roll":
                fired[rule] = fired.get(rule, 0) + 1
    return {"fired": fired, "steps": steps, "total": total, "fights": len(fights), "replayed": replayed, "replay": replay,
            "loop": steps / total, "alone": steps / max(step_time, 1e-9), "kinds": kinds,
            "whole": replayed / max(full_list + full_step, 1e-9), "whole_step": replayed / max(full_step, 1e-9)}


def _report(m: dict, title: str) -> None:
    print(f"rules: {title}: {m['steps']} random legal actions in {m['total']:.2f} s over {m['fights']} fights")
    print(f"  {m['replayed'] / max(m['replay'], 1e-9):,.0f} actions/s stepped (replaying them from scratch, "
          f"{m['replay']:.2f} s)")
    print(f"  {m['alone']:,.0f} actions/s for Session.step in the loop; {m['loop']:,.0f} actions/s for the whole loop, "
          f"the random policy listing what it draws: whole loop / step {m['loop'] / m['alone']:.3f}")
    print(f"  every menu read whole before each step (the same actions): {m['whole']:,.0f} actions/s for the loop, "
          f"{m['whole_step']:,.0f} for Session.step: {m['whole'] / m['whole_step']:.3f}")


def bench_rules(args) -> int:
    import os

    if getattr(args, "big_flyer", False):
        return bench_big_flyer(args)
    if getattr(args, "listing", False):
        return bench_listing(args)
    feats = bool(getattr(args, "feats", False))
    casters = bool(getattr(args, "casters", False))
    dragon = bool(getattr(args, "dragon", False))
    quick = getattr(args, "quick", False)
    seed = int(getattr(args, "seed", 1) or 1)
    budget_s = 2.0 if quick else 10.0
    scene = skirmish_scene(feats)
    X, Y, Z = scene.world.size
    what = (f"4 v 4 aerial skirmish ({X}x{Y}x{Z}, line of sight on every attack"
            f"{', %d feats on every character' % len(BENCH_FEATS) if feats else ''})")
    if not (casters or dragon):
        _report(measure(scene, seed, budget_s), what)
        return 0
    # issue 39 / 44: the variant beside the plain skirmish in the same run (the machine's load falls on both)
    base = measure(scene, seed, budget_s)
    _report(base, what)
    variants = []
    if casters:
        variants.append(("the same skirmish, the priest and the sky archer each holding %d SRD spells (level 9)"
                         % len(BENCH_SPELLS), skirmish_scene(feats, casters=True)))
    if dragon:
        variants.append(("an adult red dragon (legendary actions, a recharging breath) against the skirmish's "
                         "four reds", dragon_scene()))
    for title, sc in variants:
        m = measure(sc, seed, budget_s)
        _report(m, title)
        print(f"  actions taken: {', '.join(m['kinds'])}; SRD / SPL rule events: "
              f"{', '.join(f'{k} {v}' for k, v in sorted(m['fired'].items())) or 'none'}")
        print(f"  whole loop / step: {m['loop'] / m['alone']:.3f} here, {base['loop'] / base['alone']:.3f} for the "
              f"skirmish in this run; menus read whole {m['whole'] / m['whole_step']:.3f} "
              f"({base['whole'] / base['whole_step']:.3f} for the skirmish)")
    print(f"  load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    return 0


# -- aerie bench srd (issue 44's "Fast enough") ---------------------------------------------------------------------
_LOAD_ONE = ("import sys, time\nfrom engine.scene import load_scene\nt0, c0 = time.perf_counter(), time.process_time()\n"
             "load_scene(sys.argv[1])\nprint(time.perf_counter() - t0, time.process_time() - c0)\n")


_LIST_ONE = ("import argparse, contextlib, io, time\nfrom engine.compendium import creatures as cc\nbuf = io.StringIO()\n"
             "t0 = time.perf_counter()\nwith contextlib.redirect_stdout(buf):\n"
             "    cc.run(argparse.Namespace(text=[], fly=False, cr=None, json=False))\n"
             "t = time.perf_counter() - t0\nprint(t, len(buf.getvalue().splitlines()) - 2, len(buf.getvalue()))\n")


def twenty_scene_text(srd: bool) -> str:
    """A 40 x 40 x 8 field with 20 characters: 20 different SRD creatures of medium size or smaller (``srd =``),
    or the ready blocks in turn (``kind =``), one every 2 cells."""
    from engine.rules.dnd5e.data import STATBLOCKS
    from engine.rules.dnd5e.srd_blocks import bestiary

    if srd:
        ids = [k for k, c in sorted(bestiary().items()) if c["size"] in ("tiny", "small", "medium")][:20]
        keys = [f'srd = "{i}"' for i in ids]
    else:
        kinds = sorted(STATBLOCKS)
        keys = [f'kind = "{kinds[i % len(kinds)]}"' for i in range(20)]
    lines = ['name = "Twenty"', 'ruleset = "dnd5e"', "seed = 1", "[map]", "size = [40, 40, 8]"]
    for i, k in enumerate(keys):
        lines += ["[[characters]]", f'id = "c{i}"', k, f'side = "{"red" if i % 2 else "blue"}"',
                  f"at = [{2 + 2 * (i % 10)}, {4 + 20 * (i // 10)}, 0]"]
    return "\n".join(lines) + "\n"


def _child(argv: list[str]) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds of the child, its output) of one fresh Python process."""
    import os
    import subprocess
    import sys

    c0 = os.times()
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, *argv], capture_output=True, text=True, check=True).stdout
    wall = time.perf_counter() - t0
    c1 = os.times()
    return wall, (c1.children_user - c0.children_user) + (c1.children_system - c0.children_system), out


def bench_srd(args) -> int:
    """``aerie bench srd``: `aerie compendium creatures` (a fresh process: start, load and list all 334) and the
    loading of a scene of 20 SRD creatures beside one of 20 ``kind`` blocks, each in a fresh process (the bestiary
    read cold), alternated over rounds; medians."""
    import os
    import statistics
    import tempfile
    from pathlib import Path

    rounds = 3 if getattr(args, "quick", False) else 7
    walls, cpus, rows = [], [], 0
    for _ in range(rounds):
        w, c, out = _child(["-m", "engine", "compendium", "creatures"])
        walls.append(w)
        cpus.append(c)
        rows = len(out.splitlines()) - 2          # less the header and the count
    # the same in one process after its imports: the file read and the table made (a child: this module keeps out of
    # engine.compendium, which imports the scene layer)
    _, _, out = _child(["-c", _LIST_ONE])
    inproc, nlisted, nchars = out.strip().splitlines()[-1].split()
    print(f"srd: `aerie compendium creatures` ({rows} rows listed), a fresh process each, median of {rounds}: "
          f"{statistics.median(walls):.3f} s wall, {statistics.median(cpus):.3f} s CPU (goal: under 0.5 s); "
          f"in one process after its imports, the file read and listed: {float(inproc):.3f} s ({nlisted} creatures, "
          f"{int(nchars):,} characters)")
    loads: dict[str, list[float]] = {"srd": [], "kind": []}
    cpu: dict[str, list[float]] = {"srd": [], "kind": []}
    with tempfile.TemporaryDirectory() as tmp:
        paths = {}
        for name in loads:
            paths[name] = Path(tmp) / f"twenty_{name}.toml"
            paths[name].write_text(twenty_scene_text(name == "srd"), encoding="utf-8")
        for _ in range(rounds):
            for name in ("kind", "srd"):
                _, _, out = _child(["-c", _LOAD_ONE, str(paths[name])])
                wall_s, cpu_s = out.strip().splitlines()[-1].split()
                loads[name].append(float(wall_s))
                cpu[name].append(float(cpu_s))
    m = {k: statistics.median(v) for k, v in loads.items()}
    mc = {k: statistics.median(v) for k, v in cpu.items()}
    print(f"srd: load_scene of 20 characters, a fresh process each (imports done first, the bestiary read cold), "
          f"median of {rounds} alternated: 20 `kind` blocks {m['kind']:.3f} s wall ({mc['kind']:.3f} s CPU), "
          f"20 SRD creatures {m['srd']:.3f} s wall ({mc['srd']:.3f} s CPU): the SRD adds {m['srd'] - m['kind']:+.3f} s "
          f"wall, {mc['srd'] - mc['kind']:+.3f} s CPU (goal: under 0.1 s)")
    print(f"  round by round, srd - kind (CPU): "
          f"{', '.join(f'{a - b:+.3f}' for a, b in zip(cpu['srd'], cpu['kind']))}")
    print(f"  load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    return 0
