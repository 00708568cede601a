"""Shared pieces of the ruleset tests: the random scenes they build (``GENERATORS`` by ruleset name; any other
registered ruleset gets ``generic_scene_text``) and the check on illegal actions."""

import random
import re

from engine.rules.core import Illegal


def random_fills(rng, X, Y, Z, materials):
    """1-4 random boxes standing on the ground, as inline TOML tables, and the set of voxels they fill."""
    fills = []
    for _ in range(rng.randint(1, 4)):
        x0, y0 = rng.randrange(X), rng.randrange(Y)
        x1, y1 = min(X - 1, x0 + rng.randint(0, 3)), min(Y - 1, y0 + rng.randint(0, 3))
        top = rng.randint(0, Z - 4)
        mat = rng.choice(materials)
        fills.append(f'{{ material = "{mat}", from = [{x0}, {y0}, 0], to = [{x1}, {y1}, {top}] }}')
    return fills, solid_cells(fills)


def solid_cells(fills):
    solid = set()
    for f in fills:
        a = list(map(int, re.findall(r"-?\d+", f)))
        for x in range(a[0], a[3] + 1):
            for y in range(a[1], a[4] + 1):
                for z in range(a[2], a[5] + 1):
                    solid.add((x, y, z))
    return solid


def refused_unchanged(session, action) -> bool:
    """Step a possibly illegal action. True when it was refused, asserting it changed nothing; False when it
    was legal and happened."""
    before = session.fingerprint()
    try:
        session.step(action)
    except Illegal:
        assert session.fingerprint() == before, f"illegal {action} changed the state"
        return True
    return False


# ---------------------------------------------------------------------------------------------------------
DND_KINDS = ["archer", "knight", "harpy", "rogue", "priest", "mage", "guard", "duelist", "giant_eagle", "griffon",
         "flying_scout"]


def _feat_pool():
    from engine.rules.dnd5e.feats import FEATS
    return sorted(n for n, f in FEATS.items() if f["prereq"] is None)


FEAT_POOL = _feat_pool()


def dnd5e_scene_text(rng: random.Random) -> str:
    X, Y, Z = rng.randint(8, 12), rng.randint(8, 12), rng.randint(6, 9)
    fills, solid = random_fills(rng, X, Y, Z, ["stone", "roof", "brick", "wood"])
    lines = ['name = "random"', 'ruleset = "dnd5e"', f"seed = {rng.randint(0, 10**6)}", "[map]",
             f"size = [{X}, {Y}, {Z}]", f"fill = [{', '.join(fills)}]",
             "[options]", f'diagonal = "{rng.choice(["5e", "5e", "euclidean", "5-10-5"])}"']
    taken: set[tuple[int, int, int]] = set()      # cells a character already occupies
    n = 0
    for side in ("red", "blue"):
        for _ in range(rng.randint(1, 3)):
            kind = rng.choice(DND_KINDS)
            big = kind in ("giant_eagle", "griffon")
            fp = 2 if big else 1
            h = 3 if big else 2
            flyer = kind in ("harpy", "giant_eagle", "griffon", "flying_scout")
            for _try in range(50):
                x, y = rng.randrange(X - fp + 1), rng.randrange(Y - fp + 1)
                ground = max([z + 1 for (sx, sy, z) in solid if x <= sx < x + fp and y <= sy < y + fp] + [0])
                layer = ground + (rng.randint(0, 3) if flyer and rng.random() < 0.6 else 0)
                cells = {(x + i, y + j, layer + k) for i in range(fp) for j in range(fp) for k in range(h)}
                if layer + 1 > Z or cells & solid or cells & taken or any(c[2] >= Z for c in cells if c[2] < layer + 1):
                    continue
                taken |= cells
                n += 1
                lines += ["[[characters]]", f'id = "c{n}"', f'side = "{side}"', f"at = [{x}, {y}, {layer}]"]
                if kind == "flying_scout":
                    lines += ['kind = "scout"', "fly_speed_m = 12"]
                else:
                    lines += [f'kind = "{kind}"']
                if big:
                    lines += ['size = "large"']
                if flyer and layer > ground:
                    lines += ["flying = true"]
                if rng.random() < 0.2:
                    lines += ['items = ["potion_of_healing"]']
                if rng.random() < 0.3:
                    lines += ["pc = true"]
                if rng.random() < 0.7:               # random feats (issue 12): those without a prerequisite
                    picks = rng.sample(FEAT_POOL, rng.randint(1, 4))
                    lines += ["feats = [" + ", ".join(f'"{f}"' for f in picks) + "]"]
                    if rng.random() < 0.25:
                        lines += ["reactions = { opportunity_attack = false }"]
                else:
                    picks = []
                if rng.random() < 0.3:               # random armour (gear.py), now and then worn untrained
                    from engine.rules.dnd5e.gear import ARMOUR, NEEDS
                    lines += [f'armor = "{rng.choice(sorted(ARMOUR))}"']
                    if rng.random() < 0.5:
                        lines += ["shield = true"]
                    if rng.random() < 0.5:
                        profs = {NEEDS[f] for f in picks if f in NEEDS} | set(rng.sample(["light", "medium", "heavy", "shields"], rng.randint(0, 2)))
                        lines += ["armor_proficiencies = [" + ", ".join(f'"{p}"' for p in sorted(profs)) + "]"]
                if rng.random() < 0.15:
                    lines += ['weapon_proficiencies = ["simple"]', "hit_die = 10"]
                break
    return "\n".join(lines) + "\n"


MOUNTED = """
name = "mounted skirmish"
ruleset = "dnd5e"
seed = 5
[map]
size = [12, 12, 8]
fill = [{ material = "roof", from = [5, 5, 0], to = [7, 7, 2] }]
[[characters]]
id = "rider"
kind = "wyvern_rider"
side = "blue"
at = [1, 1, 0]
mount = "griffon"
[[characters]]
id = "griffon"
kind = "griffon"
size = "large"
side = "blue"
at = [1, 1, 0]
controlled_mount = true
[[characters]]
id = "eagle_rider"
kind = "scout"
side = "red"
at = [9, 9, 3]
flying = true
mount = "eagle"
[[characters]]
id = "eagle"
kind = "giant_eagle"
size = "large"
side = "red"
at = [9, 9, 3]
flying = true
[[characters]]
id = "knight"
kind = "knight"
side = "red"
at = [6, 6, 3]
[[characters]]
id = "mage"
kind = "mage"
side = "blue"
at = [2, 9, 0]
"""


BATON_KINDS = ["knight", "archer", "brigand", "harpy", "wolf", "skeleton", "griffon"]
BATON_FLYERS = ("harpy", "griffon")


def baton_scene_text(rng: random.Random) -> str:
    X, Y, Z = rng.randint(7, 10), rng.randint(7, 10), rng.randint(6, 8)
    fills, solid = random_fills(rng, X, Y, Z, ["stone", "roof", "mud", "ice", "coals", "snow", "wood"])
    opts = []
    if rng.random() < 0.5:
        opts.append(f'air12_vs_bat47 = "{rng.choice(["bat47", "air12"])}"')
    if rng.random() < 0.3:
        opts.append("air17_overrides_elevation = false")
    if rng.random() < 0.3:
        opts.append('keep_prefers = "turn"')
    if rng.random() < 0.2:
        opts.append('upkeep = "start_of_turn"')
    lines = ['name = "random baton"', 'ruleset = "baton"', f"seed = {rng.randint(0, 10**6)}"]
    if opts:
        lines += ["[options]"] + opts
    lines += ["[map]", f"size = [{X}, {Y}, {Z}]", f"fill = [{', '.join(fills)}]"]
    taken: set[tuple[int, int, int]] = set()      # cells a character already occupies
    n = 0
    for side in ("party", "foes"):
        for _ in range(rng.randint(1, 3)):
            kind = rng.choice(BATON_KINDS)
            big = kind == "griffon"
            fp, h = (2, 3) if big else (1, 2)
            flyer = kind in BATON_FLYERS
            for _try in range(50):
                x, y = rng.randrange(X - fp + 1), rng.randrange(Y - fp + 1)
                ground = max([z + 1 for (sx, sy, z) in solid if x <= sx < x + fp and y <= sy < y + fp] + [0])
                layer = ground + (rng.randint(1, 3) if flyer and rng.random() < 0.6 else 0)
                cells = {(x + i, y + j, layer + k) for i in range(fp) for j in range(fp) for k in range(h)}
                if layer + h > Z or cells & solid or cells & taken:
                    continue
                taken |= cells
                n += 1
                lines += ["[[characters]]", f'id = "c{n}"', f'side = "{side}"', f"at = [{x}, {y}, {layer}]",
                          f'kind = "{kind}"']
                if big:
                    lines += ['size = "large"']
                if flyer and layer > ground:
                    lines += ["flying = true"]
                if side == "party":
                    lines += ["pc = true"]
                if rng.random() < 0.2:
                    lines += ["counterattack = true"]
                if rng.random() < 0.2:
                    lines += ['items = { potion_healing = 1, potion_vigor = 1 }']
                if rng.random() < 0.15:
                    lines += ["surprised = true"]
                if rng.random() < 0.1:
                    lines += [f'conditions = ["{rng.choice(["slow", "shaken", "confused", "overloaded", "prone"])}"]']
                if big and rng.random() < 0.6:          # a rider on the griffon (BAT-42)
                    mount = f"c{n}"
                    n += 1
                    lines += ["[[characters]]", f'id = "c{n}"', f'side = "{side}"', f"at = [{x}, {y}, {layer}]",
                              'kind = "knight"', f'mount = "{mount}"', "flying = true"]   # carried
                    if side == "party":
                        lines += ["pc = true"]
                break
    return "\n".join(lines) + "\n"


def generic_scene_text(rng: random.Random, ruleset: str) -> str:
    """A small random map and 2-4 characters with no ruleset keys (every schema key has a default)."""
    X, Y, Z = rng.randint(7, 10), rng.randint(7, 10), rng.randint(5, 7)
    fills, solid = random_fills(rng, X, Y, Z, ["stone", "roof", "wood"])
    lines = [f'name = "random {ruleset}"', f'ruleset = "{ruleset}"', f"seed = {rng.randint(0, 10**6)}", "[map]",
             f"size = [{X}, {Y}, {Z}]", f"fill = [{', '.join(fills)}]"]
    taken: set[tuple[int, int, int]] = set()      # cells a character already occupies
    n = 0
    for side in ("red", "blue"):
        for _ in range(rng.randint(1, 2)):
            for _try in range(50):
                x, y = rng.randrange(X), rng.randrange(Y)
                layer = max([z + 1 for (sx, sy, z) in solid if (sx, sy) == (x, y)] + [0])
                cells = {(x, y, layer), (x, y, layer + 1)}
                if layer + 2 > Z or cells & solid or cells & taken:
                    continue
                taken |= cells
                n += 1
                lines += ["[[characters]]", f'id = "c{n}"', f'side = "{side}"', f"at = [{x}, {y}, {layer}]"]
                break
    return "\n".join(lines) + "\n"


def dnd5e_scene(rng: random.Random) -> str:
    return MOUNTED if rng.random() < 0.12 else dnd5e_scene_text(rng)


GENERATORS = {"dnd5e": dnd5e_scene, "baton": baton_scene_text}


def random_scene(rng: random.Random, ruleset: str) -> str:
    gen = GENERATORS.get(ruleset)
    return gen(rng) if gen else generic_scene_text(rng, ruleset)


OBJECT_MATERIALS = ["wood", "rope", "glass", "stone", "plaster"]


def random_scene_with_objects(rng: random.Random, ruleset: str) -> str:
    """A random scene plus 2-5 destructible ``[[objects]]`` with few HP: some right under a character's feet (so
    that breaking them drops it), others anywhere clear of bodies; now and then a lock."""
    from engine.scene import parse_scene

    text = random_scene(rng, ruleset)
    sc = parse_scene(text, "<gen>")
    X, Y, Z = sc.world.size
    bodies = set()
    for c in sc.characters:
        for i in range(c.footprint):
            for j in range(c.footprint):
                for k in range(c.height_layers):
                    bodies.add((c.at[0] + i, c.at[1] + j, c.at[2] + k))
    boxes: list[tuple[tuple[int, int, int], tuple[int, int, int]]] = []     # (lo, hi) cells, inclusive

    def free(lo, hi):
        cells = {(x, y, z) for x in range(lo[0], hi[0] + 1) for y in range(lo[1], hi[1] + 1) for z in range(lo[2], hi[2] + 1)}
        return not (cells & bodies) and all(not (all(a <= d and c <= b for a, b, c, d in zip(lo, hi, l2, h2)))
                                            for l2, h2 in boxes)

    for c in sc.characters:
        if c.at[2] > 0 and not c.flying and rng.random() < 0.9:
            lo = (c.at[0], c.at[1], c.at[2] - 1)
            hi = (min(X - 1, c.at[0] + c.footprint - 1 + rng.randint(0, 1)), c.at[1] + c.footprint - 1, c.at[2] - 1)
            if free(lo, hi):
                boxes.append((lo, hi))
    for _ in range(rng.randint(3, 6)):
        x, y, z = rng.randrange(X), rng.randrange(Y), rng.randrange(max(1, Z - 3))
        lo, hi = (x, y, z), (min(X - 1, x + rng.randint(0, 2)), y, min(Z - 1, z + rng.randint(0, 1)))
        if free(lo, hi):
            boxes.append((lo, hi))
    out = [text]
    for n, (lo, hi) in enumerate(boxes):
        out += ["[[objects]]", f'id = "o{n}"', f"from = {list(lo)}", f"to = {list(hi)}",
                f'material = "{rng.choice(OBJECT_MATERIALS)}"', f"hp = {rng.randint(1, 6)}"]
        if rng.random() < 0.3:
            out.append(f"lock = {{ dc = {rng.randint(5, 20)} }}")
    return "\n".join(out) + "\n"
