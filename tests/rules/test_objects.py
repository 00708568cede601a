"""DND-39 (locks) and DND-40 (objects): materials as objects, [[objects]] in scenes, attacking objects and voxels,
breaking terrain (the world changes for everyone; walkers fall with AIR-12), replays and saves, re-meshing."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from engine.rules.registry import cover_levels
from engine.errors import SceneError
from engine.rules.core import Illegal, dumps
from engine.rules.session import Session
from engine.world.cover import cover_between
from engine.world.grid import World
from engine.world.materials import BUILTIN_MATERIALS
from engine.scene import load_scene, parse_scene
from rules_helpers import find, step

pytestmark = pytest.mark.unit
ROOT = Path(__file__).resolve().parents[2]

BASE = """
name = "objects"
ruleset = "dnd5e"
[map]
size = [12, 12, 8]
{fill}
{extra}
[[characters]]
id = "a"
kind = "archer"
side = "red"
at = [5, 1, 0]
initiative = 20
{a_extra}
[[characters]]
id = "b"
kind = "knight"
side = "blue"
at = [5, 7, 0]
initiative = 2
"""


def scene(extra="", fill="", a_extra=""):
    return parse_scene(BASE.format(extra=extra, fill=fill, a_extra=a_extra), "<objects>")


WALL = """
[[objects]]
id = "wall"
from = [3, 6, 0]
to = [7, 6, 0]
material = "stone"
hp = 16
"""


# -- materials and scene validation (DND-40) -----------------------------------------------------------------
def test_dnd40_builtin_materials_carry_object_stats():
    m = BUILTIN_MATERIALS
    assert (m["wood"].ac, m["stone"].ac, m["metal"].ac, m["glass"].ac, m["rope"].ac) == (15, 17, 19, 13, 11)
    assert m["stone"].hp == 18 and m["glass"].hp == 4            # resilient / fragile medium object (4d8 / 1d8)
    for name, mat in m.items():
        if not mat.indestructible:
            assert {"psychic", "poison"} <= set(mat.immunities), name
    assert m["earth"].indestructible and m["grass"].indestructible
    assert "fire" in m["wood"].vulnerabilities and "fire" in m["stone"].resistances
    assert "bludgeoning" in m["glass"].vulnerabilities


def test_dnd40_scene_materials_may_set_object_stats():
    sc = scene(extra='[materials.adamant]\ncolor = "#222222"\nac = 23\ntoughness = "resilient"\nthreshold = 10\n'
                     'resistances = ["fire"]\n[materials.stone]\ncolor = "#888888"\nindestructible = true\n')
    w = sc.world
    ad = w.materials[w.material_id("adamant")]
    assert (ad.ac, ad.hp, ad.threshold, ad.resistances) == (23, 18, 10, ("fire",))
    st = w.materials[w.material_id("stone")]
    assert st.indestructible and st.ac == 17          # the built-in's AC kept, indestructible set


@pytest.mark.parametrize("extra, key, words", [
    ('[[objects]]\nid = "w"\nfrom = [3, 6, 0]\nto = [12, 6, 0]\nmaterial = "stone"', "objects[0].to", "outside the map"),
    ('[[objects]]\nid = "w"\nfrom = [3, 6, 0]\nto = [3, 6, 0]\nmaterial = "unobtainium"', "objects[0].material", "unknown material"),
    ('[[objects]]\nid = "w"\nfrom = [3, 6, 0]\nto = [5, 6, 0]\nmaterial = "stone"\n'
     '[[objects]]\nid = "v"\nfrom = [5, 6, 0]\nto = [5, 6, 1]\nmaterial = "wood"', "objects[1].from", "overlaps objects[0]"),
    ('[[objects]]\nid = "d"\nfrom = [3, 6, 0]\nto = [3, 6, 1]\nmaterial = "wood"\nlock = {}', "objects[0].lock.dc", "needs a DC"),
    ('[[objects]]\nid = "d"\nfrom = [3, 6, 0]\nto = [3, 6, 1]\nmaterial = "wood"\ncolour = 3', "objects[0].colour", "unknown key"),
    ('[[objects]]\nid = "d"\nfrom = [3, 6, 0]\nto = [3, 6, 1]\nmaterial = "wood"\n[[objects.parts]]\nid = "p"\n'
     'from = [4, 6, 0]\nto = [4, 6, 0]', "objects[0].parts[0].from", "not inside"),
    ('[materials.x]\ncolor = "#222222"\ntoughness = "squishy"', "materials.x.toughness", "unknown toughness"),
])
def test_dnd40_bad_objects_are_one_line_naming_the_key(extra, key, words):
    with pytest.raises(SceneError) as e:
        scene(extra=extra)
    msg = str(e.value)
    assert f"{key}:" in msg and words in msg and "\n" not in msg, msg


def test_dnd40_cli_check_refuses_a_lock_without_a_dc_with_exit_2(tmp_path, capsys):
    from engine.cli import main

    p = tmp_path / "bad.toml"
    p.write_text(BASE.format(extra='[[objects]]\nid = "d"\nfrom = [3, 6, 0]\nto = [3, 6, 1]\nmaterial = "wood"\n'
                                   'lock = { opens = false }', fill="", a_extra=""))
    assert main(["check", str(p)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "objects[0].lock.dc" in err[0]


# -- damage to objects (DND-40) -------------------------------------------------------------------------------
def _target(s, tid=None, voxel=None):
    from engine.rules import objects

    return objects.resolve(s, tid, voxel, "DND-40")


def test_dnd40_immune_resistant_vulnerable_threshold():
    from engine.rules import objects

    s = Session(scene(extra=WALL + '[[objects]]\nid = "gate"\nfrom = [9, 6, 0]\nto = [9, 6, 1]\nmaterial = "metal"\n'
                                   'hp = 30\nthreshold = 6'), 1)
    wall = _target(s, "wall")
    s._sink = []
    assert objects.damage(s, wall, 9, "psychic", "a", "DND-40")["dealt"] == 0
    assert objects.damage(s, wall, 9, "poison", "a", "DND-40")["dealt"] == 0
    assert objects.damage(s, wall, 5, "fire", "a", "DND-40")["dealt"] == 2          # stone resists fire
    assert objects.damage(s, wall, 3, "piercing", "a", "DND-40")["dealt"] == 6      # ... and is vulnerable to a pick
    assert s.state.objects["wall"]["hp"] == 8
    gate = _target(s, "gate")
    ev = objects.damage(s, gate, 5, "bludgeoning", "a", "DND-40")
    assert ev["dealt"] == 0 and ev["below_threshold"] == 6                          # less than the threshold: nothing
    assert objects.damage(s, gate, 6, "bludgeoning", "a", "DND-40")["dealt"] == 6
    s._sink = None


def test_dnd40_destroyed_at_0_hp_changes_the_world_and_cover_for_everyone():
    s = Session(scene(extra=WALL), 1)
    a, b = s.state.actors["a"], s.state.actors["b"]
    before = cover_between(s.world, a.body(), b.body(), cover_levels("dnd5e"))
    assert before.level == "half"
    evs = step(s, "a", "attack", target="wall", rolls={"attack": 15, "damage": 5})   # (5 + 3) x 2 piercing = 16
    d = find(evs, "object_destroyed", target="wall")
    assert d and d["rule"] == "DND-40" and d["voxels"] == [[[3, 6, 0], [7, 6, 0]]]
    assert not s.world.voxels[0, 6, 3:8].any()
    assert s.scene.world.voxels[0, 6, 3:8].all()                    # the scene's own map is left as loaded
    after = cover_between(s.world, a.body(), b.body(), cover_levels("dnd5e"))
    assert after.level == "none" and sum(after.blocked) == 0
    fresh = World(s.world.voxels.copy(), s.world.materials, s.world.cell_m)
    assert cover_between(fresh, a.body(), b.body(), cover_levels("dnd5e")).blocked == after.blocked
    st = s.state.to_dict()
    assert st["objects"]["wall"]["destroyed"] and st["objects"]["wall"]["hp"] == 0
    with pytest.raises(Illegal) as e:
        step(s, "a", "attack", target="wall")
    assert e.value.rule == "DND-40"


def test_dnd40_an_object_is_hit_against_its_ac_plus_cover_and_cannot_dodge():
    s = Session(scene(extra=WALL), 1)
    pv = s.preview({"actor": "a", "action": "attack", "target": "wall"})
    assert pv["legal"] and pv["target_ac"] == 17 and pv["cover"] == "none" and pv["hp"] == 16
    evs = step(s, "a", "attack", target="wall", rolls={"attack": 11, "damage": 5})   # 11 + 5 = 16 < 17
    e = find(evs, "object_attack")
    assert e["hit"] is False and e["ac"] == 17 and e["advantage"] == [] and e["disadvantage"] == []
    assert s.state.objects["wall"]["hp"] == 16


def test_dnd40_a_voxel_of_terrain_can_be_attacked_air_and_out_of_reach_are_refused():
    s = Session(scene(fill='fill = [{ material = "wood", from = [5, 4, 0], to = [5, 4, 0] }]'), 1)
    with pytest.raises(Illegal) as e:
        step(s, "a", "attack", voxel=[5, 5, 0])
    assert e.value.rule == "DND-40" and "air" in e.value.reason and e.value.path == "voxel"
    with pytest.raises(Illegal) as e:
        step(s, "a", "attack", voxel=[5, 4, 0], weapon="shortsword")
    assert e.value.rule == "AIR-05" and e.value.path == "voxel"
    with pytest.raises(Illegal) as e:
        step(s, "a", "attack", voxel=[5, 4, 9])
    assert "outside the map" in e.value.reason
    evs = step(s, "a", "attack", voxel=[5, 4, 0], rolls={"attack": 15, "damage": 8})    # 8 + 3 piercing, wood resists
    assert find(evs, "object_damage", target="voxel:5,4,0", dealt=5, hp=13)
    assert s.state.terrain == {"5,4,0": 13}


def test_dnd40_indestructible_and_ground_cannot_be_broken():
    s = Session(scene(fill='fill = [{ material = "earth", from = [5, 4, 0], to = [5, 4, 0] }]'), 1)
    with pytest.raises(Illegal) as e:
        step(s, "a", "attack", voxel=[5, 4, 0])
    assert e.value.rule == "DND-40" and "cannot be broken" in e.value.reason


def test_dnd40_parts_have_their_own_hp_and_a_felling_part_brings_the_object_down():
    statue = ('[[objects]]\nid = "statue"\nfrom = [5, 4, 0]\nto = [5, 4, 2]\nmaterial = "stone"\nhp = 50\n'
              '[[objects.parts]]\nid = "leg"\nfrom = [5, 4, 0]\nto = [5, 4, 0]\nhp = 4\nfells = true\n')
    s = Session(scene(extra=statue), 1)
    evs = step(s, "a", "attack", target="statue.leg", rolls={"attack": 15, "damage": 1})   # (1 + 3) x 2 = 8 >= 4
    d = find(evs, "object_destroyed", target="statue.leg")
    assert d["whole"] and d["fells"] == "statue"
    assert not s.world.voxels[0:3, 4, 5].any() and s.state.objects["statue"]["destroyed"]


# -- falling when the support breaks (DND-40 with AIR-12) ----------------------------------------------------
def test_dnd40_breaking_drops_walkers_with_the_aerial_fall_and_leaves_flyers():
    s = Session(load_scene(ROOT / "scenes" / "objects_rope_bridge.toml"), 3)
    evs = step(s, "raider", "attack", target="bridge", rolls={"attack": 12, "damage": 3})
    fall = find(evs, "fall", who="kell")
    assert fall["layers"] == 3 and fall["damage"] == 3 and fall["rule"] == "AIR-12"
    kell, harpy = s.state.actors["kell"], s.state.actors["harpy"]
    assert kell.layer == 0 and kell.has("prone") and kell.hp == 27
    assert harpy.flying and harpy.layer == 3 and harpy.hp == harpy.max_hp
    assert not find(evs, "fall", who="harpy")


# -- replays, saves, rollbacks --------------------------------------------------------------------------------
def test_dnd40_replays_and_saves_rebuild_the_same_voxels():
    sc = scene(extra=WALL)
    s = Session(sc, 1)
    step(s, "a", "attack", target="wall", rolls={"attack": 15, "damage": 5})
    for again in (Session.load(s.save(), scene=sc), Session.from_log([dumps(e) for e in s.events], scene=sc)):
        assert np.array_equal(again.world.voxels, s.world.voxels)
        assert again.fingerprint() == s.fingerprint()
    assert Session(sc, 1).world.voxels[0, 6, 3:8].all()           # a new game starts from the map as loaded


def test_dnd40_a_step_that_fails_after_breaking_puts_the_voxels_back(monkeypatch):
    from engine.rules import objects

    sc = scene(extra=WALL)
    s = Session(sc, 1)
    before = s.fingerprint()

    def boom(*a, **k):
        raise RuntimeError("a bug after the voxels went")

    monkeypatch.setattr(objects, "drop_unsupported", boom)
    with pytest.raises(RuntimeError):
        step(s, "a", "attack", target="wall", rolls={"attack": 15, "damage": 5})
    assert s.fingerprint() == before and s.world.voxels[0, 6, 3:8].all()
    monkeypatch.undo()
    step(s, "a", "attack", target="wall", rolls={"attack": 15, "damage": 5})
    assert not s.world.voxels[0, 6, 3:8].any()


# -- locks (DND-39) -------------------------------------------------------------------------------------------
DOOR = '[[objects]]\nid = "door"\nfrom = [5, 2, 0]\nto = [5, 2, 1]\nmaterial = "wood"\nlock = {{ dc = {dc} }}\n'


@pytest.mark.parametrize("tools, bonus", [('"carried"', 2), ('"proficient"', 4), ('"expertise"', 6)])
def test_dnd39_thieves_tools_dex_plus_proficiency_doubled_with_expertise(tools, bonus):
    # archer: Dex 14 (+2)... proficiency +2 at level 3 or lower
    s = Session(scene(extra=DOOR.format(dc=15), a_extra=f"tools = {{ thieves_tools = {tools} }}"), 1)
    a = s.state.actors["a"]
    prof = a.data["prof"]
    dex = (a.data["abilities"]["dex"] - 10) // 2
    want = dex + {"carried": 0, "proficient": prof, "expertise": 2 * prof}[tools.strip('"')]
    evs = step(s, "a", "pick_lock", target="door", rolls={"check": 10})
    e = find(evs, "lock_check")
    assert e["bonus"] == want and e["total"] == 10 + want and e["rule"] == "DND-39"
    assert e["success"] == (10 + want >= 15)


def test_dnd39_picking_needs_tools_and_opening_clears_the_way():
    s = Session(scene(extra=DOOR.format(dc=12)), 1)
    with pytest.raises(Illegal) as e:
        step(s, "a", "pick_lock", target="door")
    assert e.value.rule == "DND-39" and "thieves' tools" in e.value.reason
    evs = step(s, "a", "force_lock", target="door", rolls={"check": 12})
    strength = (s.state.actors["a"].data["abilities"]["str"] - 10) // 2
    assert find(evs, "lock_check")["bonus"] == strength
    if 12 + strength >= 12:
        assert find(evs, "lock_opened", target="door")
        assert not s.world.voxels[0:2, 2, 5].any() and s.state.objects["door"]["open"]


def test_dnd39_a_lock_is_worked_from_next_to_it():
    s = Session(scene(extra=DOOR.format(dc=12).replace("[5, 2, 0]", "[5, 4, 0]").replace("[5, 2, 1]", "[5, 4, 1]")), 1)
    with pytest.raises(Illegal) as e:
        step(s, "a", "force_lock", target="door")
    assert e.value.rule == "DND-39" and "next to" in e.value.reason


def test_dnd39_the_locked_doors_scene_picks_forces_and_breaks():
    from engine.rules.runner import play

    sc = load_scene(ROOT / "scenes" / "objects_locked_doors.toml")
    session, problems = play(sc, None, [dict(x) for x in sc.spec.script], [dict(x) for x in sc.spec.expect])
    assert problems == []
    objs = session.state.objects
    assert objs["door_a"]["open"] and objs["door_b"]["open"] and objs["door_c"]["destroyed"]


# -- the renderer re-meshes only the touched chunk ------------------------------------------------------------
def test_dnd40_one_broken_voxel_remeshes_only_its_chunk():
    """Breaking one voxel (away from a chunk border) re-meshes one chunk, and only that chunk's quads change;
    the time it takes is in docs/performance.md."""
    from engine.render.mesh import CHUNK, ChunkedMesh
    from engine.rules import objects

    s = Session(load_scene(ROOT / "scenes" / "showcase.toml"), 1)
    w = objects.own_world(s)              # the session's copy, which the break edits
    solid = np.argwhere(w.solid())
    pick = next((int(x), int(y), int(z)) for z, y, x in solid
                if 2 <= x % CHUNK < CHUNK - 2 and 2 <= y % CHUNK < CHUNK - 2 and z > 0
                and not w.materials[w.voxels[z, y, x]].indestructible)
    cm = ChunkedMesh(w)
    before = {k: c.opaque[0].copy() for k, c in cm.chunks.items()}
    s._sink = []
    objects.break_target(s, objects.resolve(s, None, pick, "DND-40"), None, "DND-40", "AIR-12", "test")
    s._sink = None
    lo, hi = s.state.broken[-1]
    keys = cm.update((tuple(lo), tuple(hi)))          # one chunk rebuilt, not the map: the cost is local
    assert keys == [(pick[0] // CHUNK, pick[1] // CHUNK)], keys
    changed = [k for k, c in cm.chunks.items() if not np.array_equal(c.opaque[0], before[k])]
    assert changed == keys


# -- baton: the same objects, and manipulating the battlefield (BAT-12, BAT-15) ------------------------------
def test_baton_objects_are_attacked_against_the_base_difficulty_and_knocked_over():
    from engine.rules.runner import play

    sc = load_scene(ROOT / "scenes" / "baton_objects.toml")
    session, problems = play(sc, None, [dict(x) for x in sc.spec.script], [dict(x) for x in sc.spec.expect])
    assert problems == []
    assert session.state.objects["barricade"]["destroyed"] and session.state.objects["crates"]["destroyed"]
    assert not session.world.voxels[1:3, 6, 10].any() and not session.world.voxels[1, 7, 4:9].any()


def test_baton_manipulate_needs_to_stand_next_to_the_object_and_scales_with_its_size():
    from engine.rules.baton.actions.objects import manipulate_difficulty

    sc = load_scene(ROOT / "scenes" / "baton_objects.toml")
    s = Session(sc, 4)
    with pytest.raises(Illegal) as e:
        step(s, "lia", "manipulate", target="crates")
    assert e.value.rule == "BAT-15" and "next to" in e.value.reason
    crates = next(o for o in sc.objects if o.id == "crates")
    assert manipulate_difficulty(crates) == 10                      # 6 + 2 per voxel, 2 voxels
    with pytest.raises(Illegal) as e:
        step(s, "lia", "attack", voxel=[6, 5, 1], weapon="longbow")
    assert e.value.rule == "BAT-12" and "air" in e.value.reason


def test_a_break_is_animated_with_falling_debris():
    from engine.render.events import DAMAGE, build_step, effects
    from engine.render.state import from_session

    sc = load_scene(ROOT / "scenes" / "objects_rope_bridge.toml")
    s = Session(sc, 3)
    before = from_session(sc, s)
    evs = s.step({"actor": "raider", "action": "attack", "target": "bridge", "rolls": {"attack": 12, "damage": 3}}).events
    anim = build_step(before, from_session(sc, s), evs)
    assert not effects(s.world, anim, before, DAMAGE - 0.05).tris           # nothing before the damage lands
    early, late = effects(s.world, anim, before, 0.4).tris, effects(s.world, anim, before, 0.95).tris
    assert len(early) == len(late) > 0
    z_early = np.mean([p[2] for t in early for p in t[:3]])
    z_late = np.mean([p[2] for t in late for p in t[:3]])
    assert z_late < z_early and min(p[2] for t in late for p in t[:3]) >= 0.0      # it falls, not through the ground
    assert effects(s.world, anim, before, 0.4).tris == early                        # the same in every replay


def test_the_preview_says_what_breaking_would_open():
    from engine.app.controller import preview_lines

    s = Session(load_scene(ROOT / "scenes" / "objects_low_wall.toml"), 1)
    pv = s.preview({"actor": "ground_archer", "action": "attack", "target": "wall"})
    assert pv["target_ac"] == 17 and (pv["hp"], pv["max_hp"]) == (16, 16)
    (o,) = pv["opens"]
    assert (o["to"], o["blocked_before"], o["blocked_after"], o["lines"]) == ("brann", 18, 0, 36)
    lines = preview_lines(pv, 17)
    assert any("18/36 blocked -> 0/36" in line for line in lines)
    b = Session(load_scene(ROOT / "scenes" / "baton_objects.toml"), 1)
    pv = b.preview({"actor": "lia", "action": "attack", "target": "barricade", "weapon": "longbow"})
    assert pv["object"] and pv["difficulty"] == 7 and pv["opens"][0]["to"] == "bri"


def test_a_display_world_follows_the_session_through_breaks_and_undo():
    from engine.render.rules_bridge import display_world, sync_display_world

    sc = scene(extra=WALL)
    s = Session(sc, 1)
    disp = display_world(sc.world)
    assert sync_display_world(disp, s) == []
    step(s, "a", "attack", target="wall", rolls={"attack": 15, "damage": 5})
    assert sync_display_world(disp, s) == [((3, 6, 0), (7, 6, 0))]
    assert np.array_equal(disp.voxels, s.world.voxels) and sc.world.voxels[0, 6, 3:8].all()
    undone = Session(sc, 1)                                   # undo rebuilds the session from the scene
    assert sync_display_world(disp, undone) == [((3, 6, 0), (7, 6, 0))] and disp.voxels[0, 6, 3:8].all()


def test_the_window_controller_takes_an_object_as_the_target_of_a_click():
    from engine.app.controller import Controller

    ctl = Controller(load_scene(ROOT / "scenes" / "objects_low_wall.toml"), 1)
    assert ctl.choose("attack")
    cm = ctl.session.world.cell_m
    assert not ctl.target_object_at((1.2 * cm, 1.5 * cm, 0.0))            # bare ground: no object there
    assert ctl.target_object_at((5.5 * cm, 6.0 * cm, 0.5))                # the wall's south face
    assert ctl.pending.params["target"] == "wall"
    assert ctl.confirm()
    assert find(ctl.last_step.log, "object_attack", target="wall")


def test_an_edit_patches_the_line_of_sight_distance_field_exactly():
    """World.set_voxels recomputes the cached distance field only near the edited box; it equals a full rebuild."""
    import random

    from engine.world.los import distance_field

    rng = random.Random(5)
    mats = tuple(BUILTIN_MATERIALS.values())
    stone = 1 + list(BUILTIN_MATERIALS).index("stone")
    glass = 1 + list(BUILTIN_MATERIALS).index("glass")
    from engine.world.materials import AIR

    for trial in range(6):
        X, Y, Z = rng.choice([(90, 70, 12), (40, 40, 40), (120, 20, 8)])
        v = (np.random.default_rng(trial).random((Z, Y, X)) < 0.04).astype(np.uint8) * stone
        w = World(v, (AIR,) + mats, 1.5)
        w.los_distance()                                          # cached
        for _ in range(4):
            lo = (rng.randrange(X), rng.randrange(Y), rng.randrange(Z))
            hi = tuple(min(n - 1, a + rng.randint(0, 4)) for a, n in zip(lo, (X, Y, Z)))
            w.set_voxels(lo, hi, rng.choice([0, stone, glass]))
            assert np.array_equal(w.los_distance(), distance_field(w.blocks_sight()).ravel()), (trial, lo, hi)


def test_stills_and_replays_play_through_steps_the_script_expects_refused():
    from engine.render.rules_bridge import run_steps

    sc = load_scene(ROOT / "scenes" / "objects_low_wall.toml")
    s, per_step = run_steps(sc, len(sc.spec.script))          # the last step is marked illegal = "DND-40"
    assert per_step[-1] == [] and s.state.objects["wall"]["destroyed"]
