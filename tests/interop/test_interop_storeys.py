"""Storeys, basements and doors of imported maps, on scenes these tests write in each format (Foundry v9 with Wall
Height, the Levels module's tiles and holes, v12, v13, v14 scene levels; Universal VTT portals): a character
stands on each storey's floor, a walker on the second floor does not fall, the floor blocks sight between
storeys, a door opens, a locked one is picked, a basement keeps its walls, sight-only and movement-only walls."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from PIL import Image

from engine.rules import pathing
from engine.rules.core import Illegal
from engine.rules.session import Session
from engine.rules.registry import cover_levels
from engine.world.cover import cover_between
from engine.scene import load_scene
from rules_helpers import find, step

pytestmark = pytest.mark.unit

# A 10 x 10 square scene (100 px squares, 5 ft, no padding) with a house on grid x 2..8, y 2..8 (y down): on the
# ground a closed door in the south wall (grid x 4..5, y 8: cell (4, 2)) and a locked one in the north wall
# (cell (4, 8)); an upper storey 10..19 ft on the same outline. Tokens: a knight on the ground at cell (5, 4), an
# archer on the upper floor two cells north of it at (5, 6), a walker on the upper floor at (4, 5), a rogue inside by the locked
# door at (4, 7), a knight inside by the south door at (4, 3). Grid (gx, gy) token corner -> cell (gx, 9 - gy).
CHARS = """
[characters."Knight"]
kind = "knight"
[characters."Archer"]
kind = "archer"
[characters."Walker"]
kind = "knight"
[characters."Rogue"]
kind = "rogue"
tools = { thieves_tools = "expertise" }
[characters."Porter"]
kind = "knight"
"""


def _png(w, h, box=None, colour=(200, 40, 40)) -> bytes:
    """An RGBA image, opaque only inside ``box`` (pixels; None: everywhere)."""
    im = Image.new("RGBA", (w, h), (0, 0, 0, 0) if box else colour + (255,))
    if box:
        im.paste(Image.new("RGBA", (box[2] - box[0], box[3] - box[1]), colour + (255,)), box[:2])
    buf = io.BytesIO()
    im.save(buf, "PNG")
    return buf.getvalue()


def _outline(band, door_state=None, v9=False):
    """The house's walls on one band (bottom, top ft, or a v14 level id list): a rectangle, the doors cut in."""
    def w(x0, y0, x1, y1, door=0, ds=0):
        d = {"c": [x0 * 100, y0 * 100, x1 * 100, y1 * 100], "move": 1 if v9 else 20, "door": door, "ds": ds}
        d["sense" if v9 else "sight"] = 1 if v9 else 20
        if isinstance(band, tuple):
            d["flags"] = {"wall-height": {"bottom": band[0], "top": band[1]}}
        elif isinstance(band, list):
            d["levels"] = band
        return d

    walls = [w(2, 2, 2, 8), w(8, 2, 8, 8), w(2, 8, 4, 8), w(5, 8, 8, 8), w(2, 2, 4, 2), w(5, 2, 8, 2)]
    if door_state:
        walls += [w(4, 8, 5, 8, 1, 0), w(4, 2, 5, 2, 1, 2)]       # closed south door, locked north door
    else:
        walls += [w(4, 8, 5, 8), w(4, 2, 5, 2)]
    return walls


def _tokens(upper_ft=10, v9=False):
    def t(name, gx, gy, elev):
        return {"name": name, "x": gx * 100, "y": gy * 100, "width": 1, "height": 1, "elevation": elev,
                "disposition": 1}

    return [t("Knight", 5, 5, 0), t("Archer", 5, 3, upper_ft), t("Walker", 4, 4, upper_ft), t("Rogue", 4, 2, 0),
            t("Porter", 4, 6, 0)]


def scene_v9():
    return {"name": "Tower v9", "width": 1000, "height": 1000, "padding": 0, "grid": 100, "gridDistance": 5,
            "gridUnits": "ft", "gridType": 1, "img": "", "walls": _outline((0, 9), True, v9=True)
            + _outline((10, 19), v9=True), "tokens": _tokens()}


def scene_modern(core, tiles=True, levels_flags=False):
    """v12 / v13: a tile for the upper floor, its image opaque over the house only (with Levels' range flags, or
    only its ``elevation``, as v12+ without the module)."""
    d = {"name": f"Tower {core}", "width": 1000, "height": 1000, "padding": 0,
         "grid": {"type": 1, "size": 100, "distance": 5, "units": "ft"}, "background": {"src": "ground.png"},
         "walls": _outline((0, 9), True) + _outline((10, 19)), "tokens": _tokens(), "_stats": {"coreVersion": core}}
    if tiles:
        t = {"texture": {"src": "upper.png"}, "x": 0, "y": 0, "width": 1000, "height": 1000, "elevation": 10}
        if levels_flags:
            t["flags"] = {"levels": {"rangeBottom": 10, "rangeTop": 19}}
        d["tiles"] = [t]
    return d


def write_images(folder: Path):
    (folder / "ground.png").write_bytes(_png(1000, 1000, colour=(180, 170, 120)))
    (folder / "upper.png").write_bytes(_png(1000, 1000, (200, 200, 800, 800), (40, 40, 200)))


def imported(aerie, tmp_path, name, data, *flags):
    write_images(tmp_path)
    (tmp_path / "chars.toml").write_text(CHARS)
    src = tmp_path / f"{name}.json"
    src.write_text(json.dumps(data))
    out = tmp_path / f"{name}.toml"
    r = aerie("import", src, "-o", out, "--characters", tmp_path / "chars.toml", *flags)
    assert r.returncode == 0, r.stderr
    return load_scene(out), out.read_text(), r


def check_storeys(s, shift=0):
    """The playable checks every format shares."""
    up = 3 + shift                                      # 10 ft = 3 m: layer 3, the floor under it layer 2
    ses = Session(s, 1)
    A = ses.state.actors
    assert A["knight"].layer == shift and A["archer"].layer == up and A["walker"].layer == up
    for a in A.values():                                # everyone stands on a floor
        assert not a.flying and pathing.is_supported(ses, a), a.id
    assert s.world.is_solid(5, 6, up - 1) and s.world.is_solid(5, 5, up - 1)     # the floor under the archer
    # the floor blocks sight between the storeys (nothing else is between the knight and the archer above it; the
    # cover rule does not count the voxel right under a body, its own floor, so the archer is not straight above)
    c = cover_between(s.world, A["knight"].body(), A["archer"].body(), cover_levels("dnd5e"))
    assert not c.visible and c.level == "total"
    # a walker on the upper floor walks and does not fall
    _turn(ses, "walker")
    evs = step(ses, "walker", "move", to=[6, 5, up])
    assert (A["walker"].x, A["walker"].y, A["walker"].layer) == (6, 5, up) and not A["walker"].flying
    assert not [e for e in evs if e["type"] in ("fall", "fell", "falls")] and not A["walker"].has("prone")
    return ses


def check_doors(s, shift=0):
    """The south door opens (open_door), the knight walks out through it; the locked north door is picked."""
    ses = Session(s, 1)
    doors = {o.id: o for o in s.objects}
    south = next(o for o in doors.values() if o.box.lo[:2] == (4, 2))
    north = next(o for o in doors.values() if o.box.lo[:2] == (4, 8))
    assert south.door and south.lock_dc is None and north.lock_dc == 15
    assert s.world.materials[s.world.voxels[shift, 2, 4]].name == "door"
    _turn(ses, "porter")
    with pytest.raises(Illegal):                        # closed: the way is shut
        step(ses, "porter", "move", to=[4, 1, shift])
    evs = step(ses, "porter", "open_door", target=south.id)
    assert find(evs, "door_opened", target=south.id) and ses.state.objects[south.id]["open"]
    assert not ses.world.voxels[shift:shift + 2, 2, 4].any()
    step(ses, "porter", "move", to=[4, 1, shift])
    _turn(ses, "rogue")
    with pytest.raises(Illegal) as e:
        step(ses, "rogue", "open_door", target=north.id)
    assert "locked" in e.value.reason and e.value.rule == "DND-39"
    evs = step(ses, "rogue", "pick_lock", target=north.id, rolls={"check": 15})
    assert find(evs, "lock_check")["success"] and find(evs, "lock_opened", target=north.id)
    assert not ses.world.voxels[shift:shift + 2, 8, 4].any()


def _turn(ses, who):
    """End turns until it is ``who``'s."""
    for _ in range(12):
        if ses.current == who:
            return
        step(ses, ses.current, "end_turn")
    raise AssertionError(f"{who} never gets a turn")


# --- the formats ---------------------------------------------------------------------------------------------------
def test_v9_wall_height_bands_make_floors(aerie, tmp_path):
    s, text, _ = imported(aerie, tmp_path, "v9", scene_v9(), "--no-image")
    assert "storey '10 ft (walls)'" in text and "the footprint its walls enclose" in text
    # the floor is the house's footprint (its walls' cells and the room), on layer 2, of the default wood
    assert s.world.materials[s.world.voxels[2, 5, 5]].name == "wood"
    assert not s.world.voxels[2, 0, 0] and not s.world.voxels[2, 5, 9]
    check_storeys(s)
    check_doors(s)


def test_levels_tiles_and_holes(aerie, tmp_path):
    d = scene_modern("9", levels_flags=True)
    d.pop("_stats")
    d["grid"], d["gridDistance"] = 100, 5
    d["img"] = d.pop("background")["src"]
    d["tiles"][0] = {"img": "upper.png", "x": 0, "y": 0, "width": 1000, "height": 1000, "overhead": True,
                     "flags": {"levels": {"rangeBottom": "10", "rangeTop": "19"}}}
    d["drawings"] = [{"type": "r", "x": 700, "y": 200, "width": 100, "height": 100,       # a hole over cell (7, 7)
                      "flags": {"levels": {"drawingMode": 1, "rangeBottom": 0, "rangeTop": 19}}}]
    s, text, _ = imported(aerie, tmp_path, "levels", d, "--floor-material", "slate")
    assert "the opaque area of tiles (tiles[0] 'upper.png')" in text
    # the floor is the tile's opaque area (grid 2..8: cells 2..7), less the hole; the walls' tops join it
    solid = s.world.voxels[2] != 0
    assert solid[2:8, 2:8].sum() == 35 and not solid[7, 7]
    assert s.world.materials[s.world.voxels[2, 5, 5]].name == "slate"
    assert not solid[0:2].any() and not solid[:, 0:2].any()
    assert s.world.floor_images and s.world.floor_images[0][0] == 2
    check_storeys(s)


@pytest.mark.parametrize("core", ["12.331", "13.345"])
def test_v12_v13_tiles_by_elevation(aerie, tmp_path, core):
    s, text, _ = imported(aerie, tmp_path, "modern", scene_modern(core))
    assert f"core {core}" in text
    assert (s.world.voxels[2, 2:8, 2:8] != 0).all() and s.world.materials[s.world.voxels[2, 5, 5]].name == "wood"
    assert not (s.world.voxels[2, 0:2] != 0).any()
    img = Image.open(s.world.floor_images[0][1])
    assert img.getpixel((500, 500))[:3] == (40, 40, 200)          # the upper tile's image, drawn on its floor
    check_storeys(s)
    check_doors(s)


def test_v14_levels_with_a_basement(aerie, tmp_path):
    """v14: Basement (-10..0 ft), Ground (0..10), Upper (10..20), each with its background; the map is raised so
    the basement's floor is layer 0, the scene says the file's 0 ft is layer 3, the basement keeps its walls."""
    (tmp_path / "cellar.png").write_bytes(_png(1000, 1000, (200, 200, 800, 800), (90, 90, 90)))
    levels = [{"_id": "basement00000000", "name": "Basement", "elevation": {"bottom": -10, "top": 0},
               "background": {"src": "cellar.png"}},
              {"_id": "ground0000000000", "name": "Ground", "elevation": {"bottom": 0, "top": 10},
               "background": {"src": "ground.png"}},
              {"_id": "upper00000000000", "name": "Upper", "elevation": {"bottom": 10, "top": 20},
               "background": {"src": "upper.png"}}]
    d = scene_modern("14.360", tiles=False)
    d.pop("background")
    d["levels"] = levels
    d["walls"] = (_outline(["basement00000000"]) + _outline(["ground0000000000"], True)
                  + _outline(["upper00000000000"]))
    d["tokens"] = _tokens() + [{"name": "Miner", "x": 500, "y": 500, "width": 1, "height": 1, "elevation": -10}]
    s, text, r = imported(aerie, tmp_path, "v14", d)
    assert "the file's 0 ft is layer 3" in text and "the file's 0 is layer 3" in r.stdout
    W = s.world
    # the basement: its walls on layers 0..2 (up to the ground's floor), its room dug out of the earth
    assert [W.materials[W.voxels[z, 5, 2]].name for z in range(3)] == ["stone"] * 3
    assert not W.voxels[0:2, 5, 5].any() and W.materials[W.voxels[2, 5, 5]].name == "earth"
    assert W.materials[W.voxels[0, 0, 0]].name == "earth"      # outside the basement: solid ground up to 0 ft
    assert Image.open(W.ground_image).getpixel((500, 500))[:3] == (90, 90, 90)     # the basement's image
    assert [z for z, _ in W.floor_images] == [2, 5]            # the ground's and the upper storey's
    miner = Session(s, 1).state.actors["miner"]
    assert miner.layer == 0 and not miner.flying
    check_storeys(s, shift=3)
    check_doors(s, shift=3)


def test_v14_a_missing_level_image_is_one_warning_and_the_walls_footprint(aerie, tmp_path):
    levels = [{"_id": "ground0000000000", "name": "Ground", "elevation": {"bottom": 0, "top": 10},
               "background": {"src": "ground.png"}},
              {"_id": "upper00000000000", "name": "Upper", "elevation": {"bottom": 10, "top": 20},
               "background": {"src": "gone.webp"}}]
    d = scene_modern("14.360", tiles=False)
    d.pop("background")
    d["levels"] = levels
    d["walls"] = _outline(["ground0000000000"], True) + _outline(["upper00000000000"])
    s, text, r = imported(aerie, tmp_path, "v14m", d)
    assert r.stderr.count("\n") == 1 and "levels[1].background.src: the image 'gone.webp'" in r.stderr
    assert "the footprint its walls enclose" in text
    check_storeys(s)


def test_uvtt_portals_are_doors_that_open(aerie, tmp_path):
    """A Universal VTT room: its closed portal is an [[objects]] door, opened with open_door; --doors wall keeps
    the old door-material wall; the open portal is a gap."""
    from test_interop import uvtt

    src = tmp_path / "room.dd2vtt"
    src.write_text(json.dumps(uvtt()))
    out = tmp_path / "room.toml"
    assert aerie("import", src, "-o", out).returncode == 0
    s = load_scene(out)
    (door,) = s.objects
    assert door.door and door.box.lo == (1, 5, 0) and door.box.hi == (1, 5, 2)
    text = out.read_text()
    text = text.replace("[[cameras]]", '[[characters]]\nid = "k"\nkind = "knight"\nside = "a"\nat = [2, 5, 0]\n\n'
                        "[[cameras]]", 1)
    out.write_text(text)
    ses = Session(load_scene(out), 1)
    step(ses, "k", "open_door", target=door.id)
    assert not ses.world.voxels[0:3, 5, 1].any()
    step(ses, "k", "move", to=[0, 5, 0])
    assert aerie("import", src, "-o", tmp_path / "w.toml", "--doors", "wall").returncode == 0
    w = load_scene(tmp_path / "w.toml")
    assert not w.objects and w.world.materials[w.world.voxels[0, 5, 1]].name == "door"


def test_secret_doors_are_found_before_they_open(aerie, tmp_path):
    d = scene_v9()
    d["walls"][7]["door"] = 2                          # the ground's north door: secret
    d["walls"][7]["ds"] = 0
    s, text, _ = imported(aerie, tmp_path, "secret", d, "--no-image")
    sec = next(o for o in s.objects if o.secret)
    assert sec.id.startswith("secret_door") and sec.material == "secret_door"
    # it looks like the wall it hides in: nothing on the players' screen gives it away
    assert s.world.materials[sec.material_id].color == s.world.materials[s.world.material_id("stone")].color
    ses = Session(s, 1)
    _turn(ses, "rogue")
    with pytest.raises(Illegal) as e:
        step(ses, "rogue", "open_door", target=sec.id)
    assert e.value.rule == "DND-19"
    evs = step(ses, "gm", "secret_door", target="rogue", dc=5, door=sec.id)
    assert find(evs, "secret_door")["found"] and ses.state.objects[sec.id]["found"]
    step(ses, "rogue", "open_door", target=sec.id)
    assert ses.state.objects[sec.id]["open"]


def test_sight_only_and_movement_only_walls(aerie, tmp_path):
    """Foundry's sight-only walls (veil) block sight, not movement; movement-only walls (barrier) the reverse:
    in the rules (cover, pathing) and in the picture (the veil is drawn as a translucent haze, not a block)."""
    d = scene_modern("12.331", tiles=False)
    d["walls"] = [{"c": [300, 0, 300, 1000], "move": 0, "sight": 20},          # veil at cell x 3
                  {"c": [700, 0, 700, 1000], "move": 20, "sight": 0}]          # barrier at cell x 7
    d["tokens"] = [{"name": "Knight", "x": 100, "y": 500, "width": 1, "height": 1},
                   {"name": "Archer", "x": 500, "y": 500, "width": 1, "height": 1},
                   {"name": "Walker", "x": 900, "y": 500, "width": 1, "height": 1}]
    s, _, _ = imported(aerie, tmp_path, "senses", d)
    W = s.world
    veil, barrier = W.materials[W.voxels[0, 4, 3]], W.materials[W.voxels[0, 4, 7]]
    assert veil.name == "veil" and veil.blocks_sight and not veil.solid and veil.translucent
    assert barrier.name == "barrier" and barrier.solid and not barrier.blocks_sight
    ses = Session(s, 1)
    A = ses.state.actors
    assert not cover_between(W, A["knight"].body(), A["archer"].body(), cover_levels("dnd5e")).visible
    assert cover_between(W, A["archer"].body(), A["walker"].body(), cover_levels("dnd5e")).visible
    _turn(ses, "knight")
    step(ses, "knight", "move", to=[4, 4, 0])                     # through the veil
    _turn(ses, "archer")
    with pytest.raises(Illegal):
        step(ses, "archer", "move", to=[8, 4, 0])                 # not through the barrier


# --- bad storey data: one line and exit 2, or an import; never a traceback -------------------------------------------
BAD_VALUES = [None, "x", -1, 1e308, [], {}, [1, 2], {"x": 1}, True, "10", float("nan")]


def _mutations(d, rng):
    """(key path, mutated scene): one value of the storey keys (levels, tiles' Levels flags, drawings, doors)
    replaced by something odd."""
    import copy

    paths = [("levels", 0, "elevation", "bottom"), ("levels", 0, "elevation"), ("levels", 1, "background"), ("levels", 0, "_id"),
             ("levels", 1, "background", "src"), ("levels", 0), ("walls", 6, "ds"), ("walls", 6, "door"),
             ("tiles", 0, "flags", "levels", "rangeBottom"), ("tiles", 0, "flags", "levels"), ("tiles", 0, "width"),
             ("tiles", 0, "elevation"), ("drawings", 0, "points"), ("drawings", 0, "flags", "levels", "rangeTop"),
             ("drawings", 0, "width"), ("drawings", 0, "points", 1), ("tokens", 1, "elevation"), ("drawings", 0)]
    for path in paths:
        for v in rng.sample(BAD_VALUES, 3):
            m = copy.deepcopy(d)
            cur = m
            for k in path[:-1]:
                cur = cur[k]
            cur[path[-1]] = v
            yield path, m


def test_odd_storey_keys_are_one_line_or_import(capsys, tmp_path):
    import random

    from engine.cli import main

    write_images(tmp_path)
    d = scene_modern("14.360")
    d["levels"] = [{"_id": "g", "name": "Ground", "elevation": {"bottom": 0, "top": 10}, "background": {"src": "ground.png"}},
                   {"_id": "u", "name": "Upper", "elevation": {"bottom": 10, "top": 20}, "background": {"src": "upper.png"}}]
    d["tiles"][0]["flags"] = {"levels": {"rangeBottom": 10, "rangeTop": 19}}
    d["drawings"] = [{"type": "p", "x": 300, "y": 300, "width": 200, "height": 200,
                      "points": [[0, 0], [200, 0], [200, 200], [0, 200]],
                      "flags": {"levels": {"drawingMode": 1, "rangeBottom": 0, "rangeTop": 19}}}]
    rng = random.Random(27)
    n = 0
    for path, m in _mutations(d, rng):
        src = tmp_path / "m.json"
        src.write_text(json.dumps(m, allow_nan=True))
        capsys.readouterr()
        try:
            rc = main(["import", str(src), "-o", str(tmp_path / "out.toml")])
        except SystemExit as e:                    # argparse only; an import never exits this way
            rc = e.code
        out, err = capsys.readouterr()
        assert "Traceback" not in err, (path, err)
        lines = [ln for ln in err.splitlines() if not ln.startswith("warning: ")]
        assert rc in (0, 2), (path, rc, err)
        if rc == 2:
            assert len(lines) == 1 and "m.json" in lines[0], (path, err)
        n += 1
    assert n == 54


def test_image_flag_sets_the_ground_and_keeps_the_storeys_images(aerie, tmp_path):
    """--image FILE replaces the file's ground image only; --no-image drops every image (the floors stay)."""
    (tmp_path / "given.png").write_bytes(_png(100, 100, colour=(10, 200, 10)))
    s, _, r = imported(aerie, tmp_path, "given", scene_modern("13.345"), "--image", tmp_path / "given.png")
    assert r.stderr == "" and Image.open(s.world.ground_image).getpixel((50, 50))[:3] == (10, 200, 10)
    assert [z for z, _ in s.world.floor_images] == [2]
    s, _, r = imported(aerie, tmp_path, "bare", scene_modern("13.345"), "--no-image")
    assert s.world.ground_image is None and not s.world.floor_images and s.world.is_solid(5, 5, 2)
