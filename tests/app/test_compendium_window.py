"""Issue 44, the GM's compendium in the window (engine/app/compendium.py), without a window: every library served
alike (the shipped blocks, the SRD bestiary, a scene's statblocks file), search by name, type, CR and "flies", the
stat block's modelled / not-modelled lines, and Enter's GM actions: gm_add (srd or block) at the nearest free cell,
the initiative roll and the turn-order move, each recorded."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.app import compendium as C
from engine.app.controller import Controller
from engine.scene import load_scene

pytestmark = pytest.mark.unit
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def showcase():
    return load_scene(ROOT / "scenes" / "showcase.toml")


def test_entries_serve_shipped_blocks_and_the_srd_bestiary(showcase):
    items = C.entries(showcase)
    hows = {(e.how, e.library.split(" ")[0]) for e in items}
    assert ("block", "assets/statblocks/dnd5e.toml") in hows and ("srd", "SRD") in hows
    assert sum(e.how == "srd" for e in items) == 334


def test_baton_serves_its_profiles_and_no_bestiary():
    sc = load_scene(ROOT / "scenes" / "baton_skyfall.toml")
    items = C.entries(sc)
    assert items and all(e.how == "block" for e in items)
    assert any(e.ref == "griffon" for e in items)


def test_search_by_name_type_cr_and_flies(showcase):
    items = C.entries(showcase)
    red = C.search(items, "young red dragon")
    assert red[0].ref == "young-red-dragon"
    fl = C.search(items, "dragon flies cr10")
    assert fl and all(e.flies and e.cr == 10 and "dragon" in e.type for e in fl)
    assert {e.ref for e in fl} >= {"young-red-dragon", "young-gold-dragon"}
    walkers = C.search(items, "ogre")
    assert walkers and not any(e.flies for e in walkers if e.how == "srd")
    assert all(0.25 <= e.cr <= 1 for e in C.search(items, "beast cr1/4-1"))
    assert C.search(items, "zzzz nothing") == []


def test_stat_block_names_what_is_left_out_and_why(showcase):
    items = C.entries(showcase)
    lines = C.stat_lines(next(e for e in items if e.ref == "young-red-dragon"))
    text = "\n".join(t for t, _ in lines)
    assert "AC 18" in text and "HP 178 (17d10+85)" in text and "fly 24 m" in text
    rec = next(e for e in items if e.ref == "young-red-dragon").record
    for f in rec["features"]:
        tone = "good" if f["modelled"] else "bad"
        assert any(f["name"] in t and tn == tone for t, tn in lines)
        if not f["modelled"]:
            assert any(f["why"] in t for t, _ in lines)


def test_scene_statblocks_file_is_served_and_added(tmp_path):
    src = (ROOT / "scenes" / "showcase.toml").read_text()
    (tmp_path / "mine.toml").write_text('[sky_hunter]\nabout = "a red wyrmling, renamed"\nname = "Sky Hunter"\n'
                                        'srd = "red-dragon-wyrmling"\n')
    p = tmp_path / "scene.toml"
    p.write_text('statblocks = ["mine.toml"]\n' + src)
    sc = load_scene(p)
    items = C.entries(sc)
    e = next(e for e in items if e.ref == "sky_hunter")
    assert e.library == "mine.toml" and e.flies and e.type == "dragon"
    ctl = Controller(sc)
    ctl.hover = (20, 20, 0)
    cid = C.put(ctl, e)
    assert cid in ctl.state.actors and ctl.state.actors[cid].name.startswith("Sky Hunter")
    assert ctl.session.actions[-3]["block"] == "sky_hunter"


def test_enter_adds_rolls_initiative_and_orders_as_gm_actions(showcase):
    ctl = Controller(showcase, seed=7)
    before = list(ctl.state.order)
    ctl.hover = (30, 30, 0)
    e = next(e for e in C.entries(showcase) if e.ref == "young-red-dragon")
    cid = C.put(ctl, e, side="dragon")
    assert cid == "young_red_dragon" and ctl.state.actors[cid].side == "dragon"
    acts = [a for a in ctl.session.actions if a.get("actor") == "gm"]
    assert acts[0]["action"] == "gm_add" and acts[0]["srd"] == "young-red-dragon"
    assert acts[1] == {"actor": "gm", "action": "gm_roll", "dice": "1d20", "label": f"initiative {cid}"}
    totals = C.initiative_totals(ctl.session.events)
    assert set(before) <= set(totals) and cid in totals
    order = list(ctl.state.order)
    assert sorted(order) == sorted(before + [cid])
    i = order.index(cid)          # after everyone at or above its total, before everyone below
    assert all(totals[o] >= totals[cid] for o in order[:i]) and all(totals[o] < totals[cid] for o in order[i + 1:])
    a = ctl.state.actors[cid]
    x, y, layer = a.pos
    assert max(abs(x - 30), abs(y - 30)) <= 8       # the nearest free cell for a large body


def test_order_action():
    assert C.order_action("d", 15, ["a", "b", "d"], {"a": 20, "b": 10}) == {
        "actor": "gm", "action": "gm_order", "target": "d", "after": "a"}
    assert C.order_action("d", 25, ["a", "b", "d"], {"a": 20, "b": 10})["before"] == "a"
    assert C.order_action("d", 5, ["a", "b", "d"], {"a": 20, "b": 10}) is None
    assert C.order_action("d", 5, ["a", "d"], {}) is None


def test_creature_actions_show_their_recharge_state(tmp_path):
    from engine.app.sections.creature import rows

    src = (ROOT / "scenes" / "dnd_spells_vs_flyers.toml").read_text().replace(
        '[[characters]]\nid = "mage"', '[[characters]]\nid = "drake"\nsrd = "young-red-dragon"\nside = "sky"\n'
        'at = [5, 10, 0]\ninitiative = 30\n\n[[characters]]\nid = "mage"', 1)
    p = tmp_path / "drake.toml"
    p.write_text(src)
    ctl = Controller(load_scene(p))
    assert rows(ctl.state.actors["drake"]) == [("Fire Breath (recharge 5-6): ready", True)]
    breath = next(v for v in ctl.legal() if v["action"] == "creature_action")
    assert ctl.step(breath) is not None
    (line, ok), = rows(ctl.state.actors["drake"])
    assert not ok and line.startswith("Fire Breath (recharge 5-6): spent")
    assert rows(ctl.state.actors["mage"]) == []
