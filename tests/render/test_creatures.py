"""The creatures' looks (engine/render/creatures.py) and their meshes (engine/render/creature_models.py): every SRD
creature has a model family, dragons are dragons, the colours come from the creature, wings only on flyers."""

import json

import numpy as np
import pytest

from engine.render.creature_models import build
from engine.render.creatures import DRAGON_COLOURS, FAMILIES, colours, family, has_wings, look, look_for
from engine.resources import resource_dir

pytestmark = pytest.mark.unit

CREATURES = {c["id"]: c for c in json.loads((resource_dir("assets") / "srd" / "creatures.json")
                                            .read_text(encoding="utf-8"))["creatures"]}


def test_every_srd_creature_has_a_family_and_every_family_is_used():
    assert len(CREATURES) == 334
    got = {cid: family(c) for cid, c in CREATURES.items()}
    assert set(got.values()) == set(FAMILIES), set(FAMILIES) - set(got.values())


def test_every_dragon_is_drawn_as_a_dragon():
    dragons = [cid for cid, c in CREATURES.items() if c["type"] == "dragon"]
    assert len(dragons) == 43
    assert all(family(CREATURES[d]) == "dragon" for d in dragons)


@pytest.mark.parametrize("cid, fam", [
    ("griffon", "bird"), ("hippogriff", "bird"), ("roc", "bird"), ("giant-eagle", "bird"), ("eagle", "bird"),
    ("giant-bat", "bat"), ("bat", "bat"), ("giant-wasp", "insect"), ("giant-spider", "insect"),
    ("knight", "humanoid"), ("werewolf-hybrid", "humanoid"), ("werewolf-wolf", "quadruped"),
    ("hill-giant", "giant"), ("wolf", "quadruped"), ("pegasus", "quadruped"), ("air-elemental", "elemental"),
    ("vrock", "winged"), ("pit-fiend", "winged"), ("planetar", "winged"), ("harpy", "winged"),
    ("giant-poisonous-snake", "serpent"), ("couatl", "serpent"), ("hunter-shark", "serpent"),
    ("swarm-of-bats", "swarm"), ("gelatinous-cube", "amorphous"), ("wyvern", "dragon"), ("pseudodragon", "dragon"),
])
def test_family_of(cid, fam):
    assert family(CREATURES[cid]) == fam


def test_wings_only_on_those_that_fly():
    winged = {cid for cid, c in CREATURES.items() if has_wings(c)}
    assert all(CREATURES[cid]["fly_speed_m"] > 0 for cid in winged)
    flyers = {cid for cid, c in CREATURES.items() if c["fly_speed_m"] > 0}
    assert len(flyers) == 104
    # every flying dragon, bird and bat has wings; hoverers and flyers by magic have none
    for cid in flyers:
        if family(CREATURES[cid]) in ("dragon", "bird", "bat"):
            assert cid in winged, cid
    for cid in ("air-elemental", "ghost", "will-o-wisp", "swarm-of-ravens", "nightmare", "oni", "flying-sword"):
        assert cid not in winged, cid
    assert "dragon-turtle" not in winged and family(CREATURES["dragon-turtle"]) == "dragon"   # swims, no wings
    assert len(winged) >= 70


def _hue(rgb) -> str:
    return "rgb"[int(np.argmax(rgb))]


def test_dragon_colours_come_from_the_creature():
    red, _ = colours(CREATURES["young-red-dragon"])
    blue, _ = colours(CREATURES["adult-blue-dragon"])
    green, _ = colours(CREATURES["ancient-green-dragon"])
    assert _hue(red) == "r" and red[0] > 1.5 * max(red[1], red[2])
    assert _hue(blue) == "b" and blue[2] > 1.5 * max(blue[0], blue[1])
    assert _hue(green) == "g" and green[1] > 1.5 * max(green[0], green[2])
    for word, want in DRAGON_COLOURS.items():          # every chromatic and metallic dragon at every age
        ids = [cid for cid, c in CREATURES.items() if c["type"] == "dragon" and word in cid.split("-")]
        assert len(ids) == 4, (word, ids)
        assert all(colours(CREATURES[i])[0] == want for i in ids)
    assert len(set(DRAGON_COLOURS.values())) == len(DRAGON_COLOURS)


def test_other_colours_follow_the_creature():
    fire, _ = colours(CREATURES["fire-elemental"])
    water, _ = colours(CREATURES["water-elemental"])
    assert _hue(fire) == "r" and _hue(water) == "b"
    assert colours(CREATURES["giant-bat"])[0] != colours(CREATURES["giant-eagle"])[0]


def test_look_for_takes_the_srd_id_then_the_kind():
    assert look_for("young-red-dragon").family == "dragon"
    assert look_for(None, "giant_eagle").creature == "giant-eagle"      # a stat block's kind naming a creature
    assert look_for(None, "archer") is None and look_for(None, None) is None


def test_meshes_fit_the_size_and_wings_widen_only_flyers():
    fp, h = 3.0, 2.85                                   # large: 2 cells of 1.5 m, 3 layers
    dragon = build(look(CREATURES["young-red-dragon"]), fp, h, spread=True)
    lo, hi = dragon.bounds
    assert 0 <= lo[2] and h * 0.9 < hi[2] < h * 1.4               # legs tucked up; the body's height (wings may top it)
    assert hi[1] - lo[1] <= fp * 1.05                              # nose to tail within the footprint
    assert hi[0] - lo[0] > 1.5 * fp                                 # the spread wings
    folded = build(look(CREATURES["young-red-dragon"]), fp, h, spread=False)
    assert abs(folded.bounds[0, 2]) < 0.02                           # standing: feet on the ground
    assert folded.bounds[1, 0] - folded.bounds[0, 0] < hi[0] - lo[0]
    bear = build(look(CREATURES["brown-bear"]), fp, h)
    assert bear.bounds[1, 0] - bear.bounds[0, 0] <= fp              # no wings: within the footprint
    red = dragon.visual.vertex_colors
    own = red[red[:, 3] == 255, :3].astype(int)
    assert (own[:, 0] > own[:, 2]).mean() > 0.6                     # a red dragon is mostly red
    assert (red[:, 3] == 0).any()                                   # a part in the side's colour
    for fam_id in ("roc", "giant-wasp", "swarm-of-bats", "gelatinous-cube", "couatl", "hill-giant", "knight"):
        m = build(look(CREATURES[fam_id]), 1.5, 1.9)
        assert len(m.faces) > 50 and np.isfinite(m.vertices).all(), fam_id
