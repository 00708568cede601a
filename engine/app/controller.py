"""The window's brain, without a window: selection, the action being composed, its preview, undo / redo, forced
dice, save and load. Pure Python over the rules core (``engine.rules.session.Session``); the pyglet window only turns
input into calls here and draws what it reads back, so everything below is testable without a display.

Nothing about a ruleset is hard-coded: the buttons are the core's ``legal_actions`` grouped by action name, the
parameters an action still needs are read from the ruleset's ``action_specs`` (a ``pos`` is picked on the map,
an ``id`` by clicking a character), and the preview is the core's ``preview``. Undo rebuilds the session from
scene + seed + actions[:-1] -- the core is event-sourced, so the rebuilt state and log are exactly the old ones.

The class holds the state; cohesive groups of what it does live beside it as functions over it (issue 23: no class
over 40 methods): the players' questions in ``questions.py``, the GM's statement in ``statement.py``, the composed
action's words in ``composing.py``, the hovered cell's words in ``hovertext.py``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from engine.app import questions, statement
from engine.app.airnote import air_speed_note
from engine.app.composing import unoffered
from engine.app.fog import FogMemory, from_json as fog_from_json
from engine.app.logtext import act_words, event_line  # noqa: F401  (event_line: one log line, imported from here too)
from engine.errors import AerieError
from engine.rules.choices import ChoiceNeeded
from engine.rules.core import Illegal, dumps
from engine.rules.session import Session
from engine.rules import preview_text
from engine.rules.events import StepResult
from engine.rules.preview_text import fmt, movement_text  # noqa: F401 - movement_text: the panels' import

HOTKEYS = "1234567890"


@dataclass
class Pending:
    """An action being composed: its name, the legal variants still possible, the parameters chosen."""
    name: str
    variants: list
    params: dict = field(default_factory=dict)
    needs: list = field(default_factory=list)        # [(param, kind)] still to pick: kind "pos" or "id"
    variant_i: int = 0
    _cand: tuple | None = None
    drop: set = field(default_factory=set)           # keys the composed action leaves out (an area spell aimed at a
    #                                                  point drops the target its listed variants name)

    def candidates(self) -> list:
        """The legal variants that agree with the parameters chosen so far (cached: a flyer's move has thousands)."""
        key = json.dumps(self.params, sort_keys=True, default=str)
        if self._cand is not None and self._cand[0] == key:
            return self._cand[1]
        out = [v for v in self.variants if all(v.get(k, val) == val for k, val in self.params.items())]
        self._cand = (key, out)
        return out


class Controller:
    def __init__(self, scene, seed: int | None = None, session: Session | None = None):
        self.scene = scene
        self.session = session or Session(scene, seed)
        self.seed = self.session.seed
        self.redo_stack: list[dict] = []
        self.selected: str | None = self.session.current
        self.pending: Pending | None = None
        self.cursor_layer: int = 0
        self.hover: tuple[int, int, int] | None = None
        self.forced: dict = {}
        self.hand_names: set = set()      # the roll names entered by hand (R), one number a die
        self.message: tuple[str, str] = ("", "info")     # (text, "info" | "error")
        self.last_step: StepResult | None = None      # what the last step returned (undo, load: None)
        self.version = 0           # bumps on every change the window must redraw / recompute for
        self.state_version = 0     # bumps when the rules state changes (step, undo, redo, load)
        self._legal_cache: tuple[tuple, list[dict]] | None = None     # (state key, legal actions)
        self.msg_version = 0
        # ask mode (the window): a player's choice the action leaves open becomes a question for that character's
        # player, answered into the action's parameters before the step is taken (engine/rules/choices.py)
        self.ask = False
        self.question: dict | None = None     # {"action", "answered", "point", "pick"}
        self._table_done: set = set()         # table questions answered "as it stands": (key, actions played)
        self.statement: dict | None = None    # the GM stating what a composed action leaves to it (engine/app/statement.py)
        self.fog = FogMemory()                # what each side has seen (engine/app/fog.py; the window keeps it up)
        if self.selected:
            self.cursor_layer = self.actor(self.selected).layer

    # -- reading -----------------------------------------------------------------------------------------------
    @property
    def state(self):
        return self.session.state

    def actor(self, cid):
        return self.session.state.actors[cid]

    def specs(self) -> dict:
        return self.session.ruleset.action_specs()

    def legal(self) -> list[dict]:
        if self.selected is None:
            return []
        k = (id(self.session), self.state_version, len(self.session.actions), self.selected)
        if self._legal_cache is not None and self._legal_cache[0] == k:
            return self._legal_cache[1]
        try:
            out = list(self.session.legal_actions(self.selected))
        except AerieError:
            out = []
        self._legal_cache = (k, out)
        return out

    def buttons(self) -> list[dict]:
        """One button per legal action name, in the core's order, with its action kind's hotkey (or none)."""
        names = []
        for a in self.legal():
            if a.get("action") not in names:
                names.append(a.get("action"))
        from engine.app.flow import hotkeys

        keys = hotkeys(self)
        return [{"action": n, "label": str(n).replace("_", " "), "hotkey": keys.get(str(n), ""),
                 "active": self.pending is not None and self.pending.name == n} for n in names]

    # -- selection ---------------------------------------------------------------------------------------------
    def _changed(self, state=False):
        self.version += 1
        if state:
            self.state_version += 1

    def select(self, cid: str | None):
        if cid is not None and cid not in self.state.actors:
            self.say(f"no character {cid!r}", "error")
            return
        if self.pending is not None and cid is not None:
            # while composing an action that needs a character, a click chooses it instead of selecting
            need = next((k for k, kind in self.pending.needs if kind == "id"), None)
            if need is not None:
                self.choose_param(need, cid)
                return
        self.selected = cid
        self.pending = None
        if cid is not None:
            self.cursor_layer = self.actor(cid).layer
            cur = self.session.current
            if cur is not None and cid != cur and not self.legal():
                self.say(f"it is {cur}'s turn; {cid} has nothing to do now")
            else:
                self.say("")
        self._changed()

    def target_object_at(self, point) -> bool:
        """A click on the map while an action needs a target: the object whose voxel the click touched (a point in
        metres on a voxel face) becomes the target (issue 14). False when no object is there."""
        p = self.pending
        if p is None or "target" not in dict(p.needs) or not self.state.objects:
            return False
        from engine.rules.objects import gone, object_at

        cm = self.session.world.cell_m
        for dx in (-0.05, 0.05):
            for dy in (-0.05, 0.05):
                for dz in (-0.05, 0.05):
                    v = (int((point[0] + dx) // cm), int((point[1] + dy) // cm), int((point[2] + dz) // 1))
                    o = object_at(self.session, *v)
                    if o is not None and not gone(self.session, o):
                        self.choose_param("target", o.id)
                        return True
        return False

    def select_current(self):
        self.select(self.session.current)

    def cycle_selection(self, step: int = 1):
        ids = list(self.state.order) or list(self.state.actors)
        if not ids:
            return
        i = ids.index(self.selected) if self.selected in ids else -1
        self.select(ids[(i + step) % len(ids)])

    def set_layer(self, layer: int):
        Z = self.scene.world.size[2]
        self.cursor_layer = int(min(max(layer, 0), Z - 1))
        self._changed()

    def change_layer(self, delta: int):
        self.set_layer(self.cursor_layer + delta)

    def say(self, text: str, kind: str = "info"):
        self.message = (text, kind)
        self.msg_version += 1      # the HUD's message line only: nothing in the 3D view depends on it

    # -- composing an action ------------------------------------------------------------------------------------
    def choose(self, name: str) -> bool:
        """Start composing the legal action ``name`` (a button / hotkey)."""
        variants = [a for a in self.legal() if a.get("action") == name]
        if self.ask:        # the other characters' choices are theirs to make, asked when the moment comes
            others = tuple(getattr(self.session.ruleset, "OTHERS_CHOICES", ()))
            variants = [a for a in variants if not any(k in a for k in others)] or variants
        if not variants:
            reason = f"{name.replace('_', ' ')} is not possible for {self.selected} now"
            if self.session.current and self.selected != self.session.current:
                reason += f" (it is {self.session.current}'s turn)"
            self.say(reason, "error")
            return False
        spec = self.specs().get(name, {})
        needs, params = [], {}
        for k, p in spec.items():
            # a target every listed variant names is asked for even when the action could go without one (an
            # attack may name a voxel instead, issue 14)
            if p.kind in ("pos", "id") and (p.required or (k == "target" and all(k in v for v in variants))):
                have = [v for v in variants if k in v]
                values = {json.dumps(v[k]) for v in have}
                if p.kind == "pos" and len(have) == len(variants) and len(values) == 1:
                    continue   # the core filled it in, one value
                needs.append((k, p.kind))
                if p.kind == "id" and len(have) == len(variants) and len(values) == 1:
                    params[k] = have[0][k]      # the only target: chosen already, a click can still change it
        self.pending = Pending(name, variants, params, needs)
        self.say("")
        self._changed()
        return True

    def hotkey(self, key: str) -> bool:
        for b in self.buttons():
            if b["hotkey"] == key:
                return self.choose(b["action"])
        return False

    def choose_param(self, key: str, value):
        p = self.pending
        if p is None:
            return
        kinds = dict(p.needs)
        if key not in kinds:
            return
        if kinds[key] == "id":
            ok = [v for v in p.variants if k_ok(v, key, value)]
            if not ok:
                # not among the targets the core offers (it offers enemies): ask the core itself, so the message
                # agrees with the preview: an ally may be attacked (5e allows it), a target out of range may not
                self.say(*unoffered(self, p, key, value))
                # keep the choice so the preview can show the core's reason
            else:
                self.say("")          # a complaint about the previous choice no longer applies
        p.params[key] = value
        p.variant_i = 0
        self._changed()

    def set_destination(self, cell):
        """The hovered / clicked cell for the pending action's position parameter."""
        p = self.pending
        if p is None:
            return
        k = next((k for k, kind in p.needs if kind == "pos"), None)
        if k is not None and cell is not None:
            cell = [int(v) for v in cell]
            a = self.state.actors.get(self.selected)
            if a is not None and tuple(cell) == a.pos and not any(v.get(k) == cell for v in p.variants):
                # the cursor starts on the character: that is where it is, not a destination (no red refusal)
                if p.params.pop(k, None) is not None or not self.message[0]:
                    self.say(f"{p.name.replace('_', ' ')}: point at a destination (PgUp / PgDn: the layer)")
                self._changed()
                return
            p.params[k] = cell
            self._changed()

    def next_variant(self):
        if self.pending is not None:
            n = len(self.pending.candidates())
            if n > 1:
                self.pending.variant_i = (self.pending.variant_i + 1) % n
                self._changed()

    def cancel(self):
        if self.pending is not None:
            self.pending = None
            self.say("")
            self._changed()

    def missing(self) -> list[str]:
        p = self.pending
        if p is None:
            return []
        return [k for k, _kind in p.needs if k not in p.params]

    def action(self) -> dict | None:
        """The complete action the pending choice describes, or None while something is missing."""
        p = self.pending
        if p is None or self.missing():
            return None
        cands = p.candidates()
        if cands:
            base = dict(cands[p.variant_i % len(cands)])
        else:
            base = dict(p.variants[0])
        base.update(p.params)
        for k in p.drop:
            base.pop(k, None)
        base.setdefault("actor", self.selected)
        base["action"] = p.name
        if self.forced:
            base["rolls"] = {k: (list(v) if isinstance(v, list) else v) for k, v in self.forced.items()}
        return base

    # -- previews (pure, may be slow: the window calls them in a worker thread) ----------------------------------
    def preview_of(self, action: dict) -> dict:
        """``{"ok": True, "preview": {...}}`` or ``{"ok": False, "reason": ..., "rule": ...}``. Never raises for an
        illegal action."""
        try:
            self.session.check(action)
        except Illegal as e:
            out = {"ok": False, "reason": e.reason, "rule": e.rule, "path": e.path}
            try:
                out["preview"] = self.session.preview(action)
            except Exception:   # noqa: BLE001 - the preview is a bonus on an illegal action
                pass
            return out
        except AerieError as e:
            return {"ok": False, "reason": str(e), "rule": ""}
        try:
            return {"ok": True, "preview": self.session.preview(action)}
        except Illegal as e:
            return {"ok": False, "reason": e.reason, "rule": e.rule, "path": e.path}
        except AerieError as e:
            return {"ok": False, "reason": str(e), "rule": ""}

    # -- committing ------------------------------------------------------------------------------------------------
    def confirm(self) -> StepResult | None:
        act = self.action()
        if act is None:
            miss = self.missing()
            if self.pending is None:
                self.say("choose an action first (the buttons or keys 1-9)", "error")
            else:
                self.say(missing_text(self.pending, miss), "error")
            return None
        return self.step(act)

    def step(self, act: dict, answered: dict | None = None, asking: bool = True) -> StepResult | None:
        """Take ``act``: the session's :class:`StepResult` (also kept as ``last_step``: the window animates it), or
        None when it was refused or a player's choice became a question."""
        notes: list[str] = []
        try:
            from engine.app.flow import one_die_each

            act, res, notes = one_die_each(self, act, answered, asking)
        except ChoiceNeeded as c:
            questions.ask(self, act, answered, c.point)
            return None
        except Illegal as e:
            note = air_speed_note(self.session, act, e.reason)        # AIR-09 where the refusal shows
            self.say(f"{e.reason}" + (f" ({e.rule})" if e.rule and f"({e.rule})" not in e.reason else "")
                     + (f" - {note}" if note else ""), "error")
            return None
        except AerieError as e:
            self.say(str(e), "error")
            return None
        self.question = None
        self.redo_stack.clear()
        self.forced = {}
        self.hand_names = set()
        self.pending = None
        self.last_step = res
        self._after_state_change()
        gm_text = next((e["text"] for e in reversed(res.log) if act.get("actor") == "gm" and isinstance(e.get("text"), str)), None)
        self.say("; ".join([gm_text or f"{act.get('actor')}: {str(act.get('action')).replace('_', ' ')} done"] + notes))
        return res

    # -- questions: a player's choice at the moment the rules make it (ask mode; engine/app/questions.py) ----------
    def question_view(self) -> dict | None:
        """What the prompt shows (and the tests read): see :func:`engine.app.questions.view`."""
        return questions.view(self)

    def set_ask(self, on: bool = True):
        """Ask mode on (the window): the players' choices become questions, and a question the table answers
        between actions (the ruleset's ``table_question``) is offered at once."""
        self.ask = on
        questions.offer_table(self)

    def answer(self, i: int | None = None) -> StepResult | None:
        """Answer the open question with option ``i`` (None: the one highlighted), then try the step again."""
        return questions.answer(self, i)

    def _after_state_change(self):
        questions.offer_table(self)
        cur = self.session.current
        was = getattr(self, "_current_was", None)
        self._current_was = cur
        # whose turn it is changed (a pass of the initiative, an end of turn): the selection follows it from whoever
        # had it -- a passer that may still react kept the selection (issue 40 item 11)
        moved_on = cur != was and was is not None and self.selected == was
        if cur is not None and (self.selected is None or self.selected not in self.state.actors
                                or moved_on or not self.legal()):
            self.selected = cur
        if self.selected in self.state.actors:
            a = self.actor(self.selected)
            self.cursor_layer = a.layer
        self._changed(state=True)

    # -- undo / redo ----------------------------------------------------------------------------------------------
    def _rebuild(self, actions: list[dict]):
        s = Session(self.scene, self.seed, self.session.options)
        for a in actions:
            s.step(a)
        self.session = s

    def undo(self) -> bool:
        if not self.session.actions:
            self.say("nothing to undo")
            return False
        acts = list(self.session.actions)
        last = acts.pop()
        self.question = None
        self._rebuild(acts)
        self.redo_stack.append(last)
        self.pending = None
        self.last_step = None
        self._after_state_change()
        self.say(f"undone: {act_words(self.state.actors, last)}")
        return True

    def redo(self) -> bool:
        if not self.redo_stack:
            self.say("nothing to redo")
            return False
        act = self.redo_stack.pop()
        said = act_words(self.state.actors, act)      # before it: a removal's target is gone after it
        keep = list(self.redo_stack)
        res = self.step(act, asking=False)        # its choices were made when it was first taken
        self.redo_stack = keep
        if res is not None:
            self.say(f"redone: {said}")
        return res is not None

    # -- forced dice ------------------------------------------------------------------------------------------------
    def enter_roll(self, text: str) -> bool:
        """``"attack 17"``, ``"damage 3 5"`` or ``"fall=9"``: the next action uses these results instead of rolling.
        ``"clear"`` forgets them."""
        t = text.replace("=", " ").replace(",", " ").split()
        if not t:
            return False
        if t[0].lower() in ("clear", "none", "-"):
            self.forced = {}
            self.hand_names = set()
            self.say("hand-entered dice cleared")
            return True
        name, vals = t[0], t[1:]
        try:
            nums = [int(v) for v in vals]
        except ValueError:
            self.say(f"a die result is a whole number: {text!r}", "error")
            return False
        if not nums:
            self.say(f"give a result: e.g. '{name} 17'", "error")
            return False
        self.forced[name] = nums[0] if len(nums) == 1 else nums
        self.hand_names.add(name)
        from engine.app.flow import two_dice_hint

        self.say(f"next action uses {name} = {' '.join(map(str, nums))} (entered by hand, one number a die)"
                 + two_dice_hint(self, name, nums))
        return True

    # -- save / load -----------------------------------------------------------------------------------------------
    def save(self, path) -> Path:
        p = self.write_save(path)
        self.say(f"saved {len(self.session.actions)} action(s) to {p}")
        return p

    def write_save(self, path) -> Path:
        """The whole game to ``path``, said to no one: the session's save and the fog-of-war memory (Ctrl+S and
        the recovery file, engine/app/recovery.py, write the same)."""
        from engine.outputs import write_output      # atomic: a save cut off mid-write leaves the old one

        data = self.session.save()
        if self.fog.sightings:              # what each side has seen (fog of war with memory): the window's own key
            data["fog"] = self.fog.to_json()
        return write_output(path, json.dumps(data, indent=1, sort_keys=True).encode("utf-8"), "the save")

    def load(self, path) -> bool:
        from engine.rules import saves

        p = Path(path)
        if not p.exists():
            self.say(f"{p}: no saved game there", "error")
            return False
        try:
            data = saves.read_file(p)
            same = isinstance(data, dict) and data.get("scene") == self.scene.path
            s = saves.load(Session, data, self.scene if same else None, p.parent, str(p))
            fog = fog_from_json(data.get("fog") if isinstance(data, dict) else None, str(p))
        except AerieError as e:
            self.say(f"cannot load: {e}", "error")
            return False
        self.scene = s.scene
        self.session = s
        self.seed = s.seed
        self.fog = fog
        self.question = None
        self.redo_stack.clear()
        self.pending = None
        self.last_step = None
        self._after_state_change()
        self.say(f"loaded {len(s.actions)} action(s) from {p}")
        return True

    def event_log_text(self) -> str:
        """The event log as JSON lines (the same bytes ``aerie run --log`` writes for the same game)."""
        return "".join(dumps(e) + "\n" for e in self.session.events)

    def snapshot(self) -> dict:
        """What the tests (and a curious user) can read: the core's state plus the window's choices."""
        p = self.pending
        return {
            "state": self.state.to_dict(), "selected": self.selected, "cursor_layer": self.cursor_layer,
            "hover": list(self.hover) if self.hover else None,
            "pending": None if p is None else {"action": p.name, "params": p.params, "missing": self.missing()},
            "action": self.action(), "forced": self.forced, "message": list(self.message),
            "buttons": self.buttons(), "actions": list(self.session.actions), "redo": len(self.redo_stack),
            "events": len(self.session.events), "question": self.question_view(),
            "scene": str(self.scene.path), "seed": self.session.seed,   # with "actions": the game, replayable
            "statement": None if self.statement is None else {**self.statement, "prompt": statement.prompt(self)},
        }


def missing_text(p: Pending, miss: list[str]) -> str:
    """What to pick before the composed action can be taken, by what each parameter is: a cell on the map ("a
    destination") or a character ("whom to pass to: click a character")."""
    kinds = dict(p.needs)
    verb = p.name.replace("_", " ")
    words = []
    for k in miss:
        if kinds.get(k) == "pos":
            words.append("a destination on the map" if k == "to" else f"a cell for {k.replace('_', ' ')}")
        elif k == "target":
            words.append(f"a target to {verb} (click a character)")
        else:
            words.append(f"whom to {verb} {'to' if k == 'to' else k.replace('_', ' ')} (click a character)")
    return "pick " + " and ".join(words) + " first"


def template_label(shape: str, size_m: float) -> str:
    """An area template's size in words: which length the number is (a sphere's radius, a cube's side...)."""
    n = f"{size_m:g} m"
    return {"sphere": f"sphere, radius {n}", "cube": f"cube, side {n}",
            "cone": f"cone, {n} long (as wide as it is far)", "line": f"line, {n} long, 1.5 m wide"}.get(shape, f"{shape} {n}")


def turn_row_tail(session, a, marks: dict | None = None, short: dict | None = None) -> str:
    """A turn-order row's figures: the health with its pools spelt out (Life, never a bare "L") and where it is,
    the layer in words."""
    from engine.app.tokens import health_words

    where = f"layer {a.layer}" + (" flying" if a.flying else "")
    if marks and a.id in marks:
        where = f"{(short or {}).get(marks[a.id], marks[a.id])}, {where}"
    return f"{health_words(session, a)}  {where}"


def k_ok(v: dict, key: str, value) -> bool:
    return key not in v or v[key] == value


# -- text for the panels -----------------------------------------------------------------------------------------------
PREVIEW_ORDER = ("summary", "text", "cost_m", "movement_cost_m", "path_cost_m", "horizontal_m", "climb_m",
                 "descend_m", "descent_m", "takeoff_m", "take_off_m", "remaining_m", "movement_left_m",
                 "upkeep", "bonus_action", "needs", "to_hit", "hit_chance", "chance", "advantage", "disadvantage",
                 "cover", "cover_bonus", "blocked_fraction", "modifiers", "fall_risk", "fall_chance", "can_fall")


def preview_lines(pv: dict, base_ac=None, ruleset=None) -> list[str]:
    """A ruleset's preview dict as readable lines (move and attack in full sentences, anything else key by key;
    long lists summarised)."""
    if not isinstance(pv, dict):
        return [str(pv)]
    own = pv.get("lines")
    if isinstance(own, list) and own and pv.get("action") != "move":
        return [str(x) for x in own]           # the ruleset's own readable lines
    try:
        if pv.get("action") == "move" and "cost_m" in pv:
            return preview_text.move_lines(pv, ruleset)
        if pv.get("action") == "attack" and ("hit_chance" in pv or "cover" in pv):
            return preview_text.attack_lines(pv, base_ac, ruleset)
    except (TypeError, ValueError, KeyError):
        pass
    out = []
    keys = [k for k in PREVIEW_ORDER if k in pv] + [k for k in pv if k not in PREVIEW_ORDER]
    for k in keys:
        v = pv[k]
        if k in ("type", "actor", "action", "samples", "rays", "sight_lines", "legal"):
            continue
        if k in ("lines", "explain", "notes") and isinstance(v, list):
            out += [str(x) for x in v]
            continue
        if k == "area" and isinstance(v, dict) and "shape" in v and "size_m" in v:   # drawn on the map
            out.append(f"area: {v['shape']} {v['size_m']:g} m (drawn on the map)")
            continue
        if k == "path" and isinstance(v, list):
            out.append(f"path: {len(v)} node(s)" + (f", {fmt(v[0])} -> {fmt(v[-1])}" if v else ""))
            continue
        if isinstance(v, float) and k.endswith(("chance", "_hit", "probability")) and 0 <= v <= 1:
            out.append(f"{k.replace('_', ' ')}: {v:.0%}")
            continue
        if isinstance(v, list) and len(v) > 6:
            out.append(f"{k.replace('_', ' ')}: {len(v)} items")
            continue
        if isinstance(v, dict):
            out.append(f"{k.replace('_', ' ')}: " + fmt(v))
            continue
        out.append(f"{k.replace('_', ' ')}: {fmt(v)}")
    return out
