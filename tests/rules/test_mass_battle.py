"""Mass battles: loading and starting a scene of thousands of characters is linear in them (issue 26). The
overlap check of scene loading looks only at the bodies over the same cells, and the rulesets find a character's
index by id; both still give the errors they gave."""

import pytest

from engine.errors import SceneError
from engine.rules.session import Session
from engine.sim.bench import mass_scene_text
from engine.scene import load as scene_mod
from engine.scene import parse_scene

pytestmark = pytest.mark.unit

HEAD = 'name = "crowd"\nruleset = "dnd5e"\n[map]\nsize = [12, 12, 6]\n'


def _char(cid, at, **kw):
    extra = "".join(f"{k} = {v}\n" for k, v in kw.items())
    return f'[[characters]]\nid = "{cid}"\nkind = "knight"\nside = "red"\nat = {list(at)}\n{extra}'


def test_two_bodies_in_one_space_are_refused_naming_the_first_one_placed():
    text = HEAD + _char("a", (2, 2, 0)) + _char("big", (5, 5, 0), size='"large"') + _char("b", (6, 6, 0))
    with pytest.raises(SceneError, match=r"characters\[2\].at.*'b' would stand in the same space as 'big'"):
        parse_scene(text, "<crowd>")
    text = HEAD + _char("a", (2, 2, 0)) + _char("b", (2, 2, 2), flying="true") + _char("c", (2, 2, 1), flying="true")
    with pytest.raises(SceneError, match=r"characters\[2\].at.*'c' would stand in the same space as 'a' \(characters\[0\]"):
        parse_scene(text, "<crowd>")


def test_bodies_side_by_side_or_stacked_apart_are_accepted():
    text = HEAD + _char("a", (2, 2, 0)) + _char("b", (3, 2, 0)) + _char("c", (2, 2, 2), flying="true")
    assert [c.id for c in parse_scene(text, "<crowd>").characters] == ["a", "b", "c"]


def test_the_overlap_check_looks_only_at_the_same_cells(monkeypatch):
    seen = []
    real = scene_mod._sharing_columns

    def spy(columns, out, x, y, footprint):
        got = real(columns, out, x, y, footprint)
        seen.append(len(got))
        return got

    monkeypatch.setattr(scene_mod, "_sharing_columns", spy)
    parse_scene(mass_scene_text(150), "<mass>")
    assert len(seen) == 300 and max(seen) == 0        # the old loop compared each body with every earlier one


def test_starting_a_session_never_compares_whole_characters(monkeypatch):
    sc = parse_scene(mass_scene_text(100), "<mass>")
    calls = []
    cls = type(sc.characters[0])
    real = cls.__eq__
    monkeypatch.setattr(cls, "__eq__", lambda a, b: calls.append(1) or real(a, b))
    s = Session(sc, 1)
    assert len(s.state.actors) == 200 and len(calls) == 0      # characters.index(ch) made ~20,000 comparisons
