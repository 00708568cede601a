"""What the renderer reads about characters: where they are, whether they fly, their conditions and hit points.

Taken from a rules session's state where one exists, else from the scene's characters. Positions may be
fractional while an animation moves a character between cells; the label always shows the whole layer.
Pure Python; no GL.
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass, field, replace

from engine.world.geometry import Body

# A fixed palette per side name, stable across runs (other names hash into the extra colours).
SIDE_COLOURS = {
    "players": (50, 110, 230), "party": (50, 110, 230), "heroes": (50, 110, 230), "blue": (50, 110, 230),
    "a": (50, 110, 230), "allies": (50, 110, 230), "pc": (50, 110, 230), "pcs": (50, 110, 230),
    "enemies": (215, 45, 40), "enemy": (215, 45, 40), "monsters": (215, 45, 40), "red": (215, 45, 40),
    "b": (215, 45, 40), "foes": (215, 45, 40),
    "neutral": (225, 190, 60),
}
EXTRA_COLOURS = [(150, 70, 210), (40, 170, 150), (240, 130, 30), (230, 90, 170), (120, 200, 60), (90, 90, 100)]


_ASSIGNED: dict[str, tuple[int, int, int]] = {}
_FIRST_CHOICES = [SIDE_COLOURS["blue"], SIDE_COLOURS["red"]] + EXTRA_COLOURS


def assign_side_colours(sides) -> None:
    """Give the sides of one scene distinct colours: known names keep theirs; other names take, in order of
    first appearance, the first colours no other side of the scene uses (so "ground" and "sky" are blue and
    red, not two hashes that may look alike)."""
    used = {SIDE_COLOURS[s.lower()] for s in sides if s.lower() in SIDE_COLOURS}
    for s in dict.fromkeys(x.lower() for x in sides):
        if s in SIDE_COLOURS:
            continue
        free = [c for c in _FIRST_CHOICES if c not in used]
        _ASSIGNED[s] = free[0] if free else EXTRA_COLOURS[zlib.crc32(s.encode()) % len(EXTRA_COLOURS)]
        used.add(_ASSIGNED[s])


def side_colour(side: str) -> tuple[int, int, int]:
    key = side.lower()
    c = SIDE_COLOURS.get(key) or _ASSIGNED.get(key)
    if c is not None:
        return c
    return EXTRA_COLOURS[zlib.crc32(key.encode()) % len(EXTRA_COLOURS)]


LYING = ("prone", "unconscious", "dead", "dying", "down")
DOWN = ("unconscious", "dead", "dying", "down")


@dataclass(frozen=True)
class CharView:
    id: str
    side: str
    x: float                      # cells (west edge of the footprint)
    y: float
    layer: float                  # feet altitude in layers
    flying: bool = False
    kind: str | None = None
    footprint: int = 1
    height_layers: int = 2
    eye_m: float = 1.6
    name: str = ""
    model: str | None = None
    conditions: tuple[str, ...] = ()
    hp: int | None = None
    max_hp: int | None = None
    facing_deg: float = 0.0       # 0 = facing north (+y), 90 = east
    srd: str | None = None        # the SRD creature the scene names (``srd = "young-red-dragon"``): its look
    own_model: bool = False       # the scene's table names its model itself (it is drawn, whatever the creature)

    @property
    def cell(self) -> tuple[int, int, int]:
        return (int(round(self.x)), int(round(self.y)), int(round(self.layer)))

    @property
    def body(self) -> Body:
        x, y, layer = self.cell
        return Body(x, y, layer, self.footprint, self.height_layers, self.eye_m)

    @property
    def lying(self) -> bool:
        return any(c in LYING for c in self.conditions)

    @property
    def down(self) -> bool:
        return any(c in DOWN for c in self.conditions)

    @property
    def dead(self) -> bool:
        return "dead" in self.conditions

    @property
    def model_name(self) -> str:
        return self.model or self.kind or "generic"

    def at(self, x, y, layer) -> "CharView":
        return replace(self, x=x, y=y, layer=layer)


@dataclass
class RenderState:
    characters: list[CharView] = field(default_factory=list)
    turn: str | None = None                       # id of the character whose turn it is (highlighted)

    def get(self, cid: str) -> CharView:
        for c in self.characters:
            if c.id == cid:
                return c
        raise KeyError(cid)

    def replace_char(self, cv: CharView) -> None:
        self.characters = [cv if c.id == cv.id else c for c in self.characters]

    @classmethod
    def from_scene(cls, scene) -> "RenderState":
        assign_side_colours([c.side for c in scene.characters])
        chars = []
        for c in scene.characters:
            st = c.stats
            conditions = tuple(str(v).lower() for v in (getattr(st, "conditions", None) or ()))
            max_hp = getattr(st, "max_hp", None)
            hp = getattr(st, "hp", None)
            if hp is None:
                hp = max_hp
            raw = c.raw if isinstance(c.raw, dict) else {}
            srd = raw.get("srd") if isinstance(raw.get("srd"), str) else None
            chars.append(CharView(c.id, c.side, float(c.at[0]), float(c.at[1]), float(c.at[2]), c.flying, c.kind,
                                  c.footprint, c.height_layers, c.eye_m, c.name, c.model, conditions, hp, max_hp,
                                  srd=srd, own_model="model" in raw))
        return cls(face_enemies(chars))


def face_enemies(chars: list[CharView]) -> list[CharView]:
    """Turn each character towards the nearest character of another side (north when alone)."""
    out = []
    for c in chars:
        others = [o for o in chars if o.side != c.side]
        if others:
            o = min(others, key=lambda o: (o.x - c.x) ** 2 + (o.y - c.y) ** 2 + (o.layer - c.layer) ** 2)
            dx, dy = (o.x + o.footprint / 2) - (c.x + c.footprint / 2), (o.y + o.footprint / 2) - (c.y + c.footprint / 2)
            facing = math.degrees(math.atan2(dx, dy)) if abs(dx) + abs(dy) > 1e-9 else 0.0
            out.append(replace(c, facing_deg=facing))
        else:
            out.append(c)
    return out


def from_session(scene, session) -> RenderState:
    """Read a rules session's state (engine.rules.core: ``state.actors`` of ``Actor`` with x, y, layer, flying,
    hp, max_hp, conditions, dead), falling back to the scene for anything it lacks."""
    base = RenderState.from_scene(scene)
    state = getattr(session, "state", session)
    table = getattr(state, "actors", None)
    if table is None:
        table = getattr(state, "characters", None)
    if table is None:
        return base
    items = table.values() if isinstance(table, dict) else table
    by_id = {getattr(s, "id", None): s for s in items}
    out = []
    for c in base.characters:
        s = by_id.get(c.id)
        if s is None:
            out.append(c)
            continue
        if hasattr(s, "x") and hasattr(s, "layer"):
            x, y, layer = s.x, s.y, s.layer
        else:
            x, y, layer = getattr(s, "position", None) or getattr(s, "at", None) or (c.x, c.y, c.layer)
        conds = getattr(s, "conditions", None)
        conds = tuple(sorted(str(v).lower() for v in conds)) if conds is not None else c.conditions
        if getattr(s, "dead", False) and "dead" not in conds:
            conds = conds + ("dead",)
        out.append(replace(c, x=float(x), y=float(y), layer=float(layer), conditions=conds,
                           hp=getattr(s, "hp", c.hp), max_hp=getattr(s, "max_hp", c.max_hp),
                           flying=bool(getattr(s, "flying", c.flying))))
    cur = getattr(state, "current", None)
    return RenderState(face_enemies(out), turn=cur if isinstance(cur, str) else None)
