"""Issue 39 "In the window", without a window: the cast menu lists every spell the rules offer the caster now and
a click picks one (engine/app/sections/castmenu.py); the area being aimed comes from the rules' preview and is drawn
with the rules' own area arithmetic (engine/app/spellarea.py: the outline and one cube per cell ``areas.cells``
holds); a lasting area is drawn while its caster holds it."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from engine.app import areaspell, spellarea
from engine.app.controller import Controller
from engine.app.sections.castmenu import current, facts, pick, spells
from engine.render import overlays as ov
from engine.rules.dnd5e import areas
from engine.scene import load_scene

pytestmark = pytest.mark.unit
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def mage():
    ctl = Controller(load_scene(ROOT / "scenes" / "dnd_spells_vs_flyers.toml"))
    ctl.select_current()
    ctl.choose("cast")
    return ctl


def test_cast_menu_lists_the_castable_spells_and_picks_one(mage):
    assert spells(mage) == mage.state.actors["mage"].data["spells"]     # each a legal variant now
    assert pick(mage, "fireball") and current(mage) == "fireball"
    assert pick(mage, "hold_person") and current(mage) == "hold_person"
    assert not pick(mage, "wish")
    assert facts("fireball") == "level 3, 45 m, sphere 6 m, Dex save"


def test_aimed_fireball_is_the_rules_sphere_and_its_cells(mage):
    pick(mage, "fireball")
    areaspell.aim_at(mage, "at", [12, 5, 5])
    pv = mage.preview_of(mage.action())["preview"]
    win = SimpleNamespace(ctl=mage, scene=mage.scene)
    # the older Fireball's preview has no area: the SRD data's sphere at the aimed cell's centre
    d = pv.get("area") or spellarea.from_data(win, mage.action())
    assert d["shape"] == "sphere" and d["size_m"] == 6 and d["origin"] == [18.75, 8.25, 5.5]
    ar = spellarea.area(d, areas)
    caught = [c for c in mage.state.actors.values() if areas.catches(ar, c, mage.scene.world.cell_m)]
    assert sorted(c.id for c in caught) == sorted(pv["targets"])       # it holds whom the rules catch
    ar = spellarea.area(d, areas)
    world = mage.scene.world
    pr = ov.Prims()
    n = spellarea.volume(pr, ar, world, spellarea.AIM, areas)
    want = areas.cells(ar, tuple(world.size), world.cell_m)
    assert n == len(want) > 100 and len(pr.cell_array()) == n
    spellarea.outline(pr, ar, spellarea.AIM)
    assert len(pr.xray) == 3 * 40                        # three great circles
    # every drawn cube is inside the sphere, and a cell just outside is not drawn
    assert all(areas.contains(ar, tuple(p[:3])) for p in pr.cell_array())


def test_cone_and_line_outlines_point_where_the_area_points():
    for shape in ("cone", "line", "cube", "cylinder"):
        d = {"shape": shape, "size_m": 9.0, "origin": [3.0, 3.0, 2.5], "direction": [1.0, 0.0, 0.0]}
        if shape in ("cube", "cylinder"):
            d.pop("direction")
        ar = spellarea.area(d, areas)
        pr = ov.Prims()
        spellarea.outline(pr, ar, spellarea.HELD)
        pts = [p for seg in pr.xray for p in seg[:2]]
        xs = [p[0] for p in pts]
        if shape in ("cone", "line"):
            assert max(xs) == pytest.approx(12.0, abs=1e-6) and min(xs) == pytest.approx(3.0, abs=1e-6)
        elif shape == "cube":
            assert (min(xs), max(xs)) == (pytest.approx(-1.5), pytest.approx(7.5))
        else:
            assert max(p[2] for p in pts) == pytest.approx(2.5 + 18.0)      # height: its diameter by default
    assert spellarea.area({"shape": "blob", "size_m": 1, "origin": [0, 0, 0]}, areas) is None
    assert spellarea.areas_of("dnd5e") is areas and spellarea.areas_of("baton") is None


def test_lasting_areas_are_read_from_the_casters_state():
    web = {"spell": "web", "area": {"shape": "cube", "size_m": 6.0, "origin": [9.0, 9.0, 3.0]}, "follows": False}
    st = SimpleNamespace(actors={"m": SimpleNamespace(id="m", data={"lasting": [web]}),
                                 "x": SimpleNamespace(id="x", data={})})
    assert spellarea.lasting(st) == [("m", "web", web["area"])]


def _srd_mage():
    import tempfile

    src = (ROOT / "scenes" / "dnd_spells_vs_flyers.toml").read_text().replace(
        'kind = "mage"\n', 'kind = "mage"\nspells = ["lightning-bolt", "web", "fireball"]\n', 1)
    p = Path(tempfile.mkdtemp()) / "srd_mage.toml"
    p.write_text(src)
    ctl = Controller(load_scene(p))
    ctl.select_current()
    ctl.choose("cast")
    return ctl


def test_srd_line_is_the_previews_and_a_cast_web_lasts_until_it_ends():
    ctl = _srd_mage()
    assert pick(ctl, "lightning-bolt")
    ctl.choose_param("target", "h1")                    # a target clicked after the menu keeps the spell
    assert current(ctl) == "lightning-bolt"
    d = ctl.preview_of(ctl.action())["preview"]["area"]
    ar = spellarea.area(d, areas)
    assert ar.shape == "line" and ar.size_m == 30 and ar.direction == pytest.approx(tuple(d["direction"]), abs=1e-3)
    ctl.cancel()
    ctl.choose("cast")
    assert pick(ctl, "web")
    ctl.choose_param("target", "h1")
    assert ctl.confirm() is not None
    held = spellarea.lasting(ctl.state)
    assert [(c, s, a["shape"]) for c, s, a in held] == [("mage", "web", "cube")]
    win = SimpleNamespace(ctl=ctl, scene=ctl.scene, name=lambda cid: cid)
    pr = spellarea.prims(win, None, players=True)       # what the window draws: its cells and its label
    ar = spellarea.area(held[0][2], areas)
    assert len(pr.cell_array()) == len(areas.cells(ar, tuple(ctl.scene.world.size), ctl.scene.world.cell_m)) > 0
    assert len(pr.xray) == 12 and pr.labels[0].text == "web (cube 6 m, held by mage)"
    ctl.step({"actor": "gm", "action": "gm_set", "target": "mage", "key": "hp", "value": 0})   # concentration ends
    assert spellarea.lasting(ctl.state) == []
    assert not spellarea.prims(win, None, players=True).cells          # nothing drawn once it ended
