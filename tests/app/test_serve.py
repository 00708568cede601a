"""The players' server without a window (engine/serve, run headless: a thread owns the controller): join tokens,
401 / 403, the side's state over HTTP and the WebSocket, checked and rate-limited messages that change nothing when
refused, a dropped connection that catches up, the leak test over a scripted fight, and 8 pages through 300 steps."""

from __future__ import annotations

import asyncio
import json
import random
import re

import pytest

aiohttp = pytest.importorskip("aiohttp")

from engine.app.controller import Controller  # noqa: E402
from engine.errors import AerieError  # noqa: E402
from engine.serve import Headless, parse_address  # noqa: E402
from engine.serve import messages as M  # noqa: E402
from serve_util import leaks, load, next_action, truth  # noqa: E402

pytestmark = pytest.mark.unit


@pytest.fixture
def served(tmp_path):
    h = Headless(Controller(load(tmp_path))).start()
    yield h
    h.stop()


def base(h) -> str:
    return f"http://{h.host}:{h.port}"


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 120))


async def recv_until(ws, pred, timeout=10.0):
    """Messages until one matches ``pred``; all of them."""
    got = []
    while True:
        m = await asyncio.wait_for(ws.receive(), timeout)
        assert m.type == aiohttp.WSMsgType.TEXT, m
        d = json.loads(m.data)
        got.append(d)
        if pred(d):
            return got


def test_join_lines_and_tokens(served):
    lines = served.table.join_lines("127.0.0.1", 8765)
    assert len(lines) == 2
    toks = []
    for line in lines:
        m = re.fullmatch(r"join (\w+): http://127\.0\.0\.1:8765/join/([A-Za-z0-9_-]+)", line)
        assert m, line
        toks.append(m.group(2))
    assert len(set(toks)) == 2 and all(len(t) >= 22 for t in toks)      # 16 random bytes: 128 bits, base64url
    other = Headless(Controller(served.ctl.scene))                       # a fresh run: fresh secrets
    assert not set(other.table.tokens) & set(served.table.tokens)


def test_a_missing_serve_extra_is_one_line_naming_it(monkeypatch):
    import importlib.util

    from engine.extras import MissingExtra
    from engine.serve import require

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "aiohttp" else real(name, *a))
    with pytest.raises(MissingExtra) as e:
        require()
    assert str(e.value) == ("aerie play --serve needs the Python package aiohttp (the 'serve' extra), which is not "
                            "installed: pip install 'aerie-sandbox[serve]'")


def test_address_parsing():
    assert parse_address("8765") == ("127.0.0.1", 8765)
    assert parse_address("0.0.0.0:9000") == ("0.0.0.0", 9000)
    for bad in ("x", "host:", "1:99999", "a:b"):
        with pytest.raises(AerieError, match="--serve"):
            parse_address(bad)


def test_no_token_is_401_a_wrong_one_403_and_neither_says_anything(served):
    names = [a.name for a in served.ctl.state.actors.values()] + list(served.ctl.state.actors)

    async def go():
        async with aiohttp.ClientSession() as s:
            for path in ("/", "/api/state", "/api/map.glb", "/ws", "/api/state?token=", "/ws?token="):
                r = await s.get(base(served) + path)
                body = await r.text()
                assert r.status == 401, (path, r.status)
                assert not any(n in body for n in names)
            wrong = served.token("blue")[:-2] + "xx"
            for path in (f"/join/{wrong}", f"/api/state?token={wrong}", f"/api/map.glb?token={wrong}",
                         f"/ws?token={wrong}", "/join/" + "a" * 500):
                r = await s.get(base(served) + path)
                body = await r.text()
                assert r.status == 403, (path, r.status)
                assert not any(n in body for n in names)
            with pytest.raises(aiohttp.WSServerHandshakeError) as e:
                await s.ws_connect(base(served) + f"/ws?token={wrong}")
            assert e.value.status == 403
            r = await s.get(base(served) + "/static/../table.py")             # no way out of the page's folder
            assert r.status in (403, 404)
            r = await s.get(base(served) + f"/join/{served.token('red')}")
            assert r.status == 200 and "Content-Security-Policy" in r.headers
    run(go())


def test_state_is_the_sides_view_and_the_socket_pushes_the_same(served):
    async def go():
        async with aiohttp.ClientSession() as s:
            for side in ("blue", "red"):
                r = await s.get(base(served) + f"/api/state?token={served.token(side)}")
                st = await r.json()
                assert st["side"] == side and st["type"] == "state"
                ws = await s.ws_connect(base(served) + f"/ws?token={served.token(side)}")
                first = (await recv_until(ws, lambda d: d["type"] == "state"))[-1]
                assert first == st
                await ws.close()
            r = await s.get(base(served) + f"/api/map.glb?token={served.token('red')}")
            glb = await r.read()
            assert glb[:4] == b"glTF" and b"character_" not in glb          # the map only: no characters in it
    run(go())


def test_a_players_move_from_the_socket_is_stepped_as_a_gm_click(served):
    ctl = served.ctl
    cur = ctl.session.current
    side = ctl.actor(cur).side

    async def go():
        async with aiohttp.ClientSession() as s:
            ws = await s.ws_connect(base(served) + f"/ws?token={served.token(side)}")
            st = (await recv_until(ws, lambda d: d["type"] == "state"))[-1]
            assert st["turn"]["mine"] and st["legal"]["actor"] == cur
            to = st["legal"]["moves"][0]
            await ws.send_json({"type": "preview", "action": {"actor": cur, "action": "move", "to": to}})
            pv = (await recv_until(ws, lambda d: d["type"] == "preview"))[-1]
            assert pv["numbers"]["cost_m"] > 0 and "left_after_m" in pv["numbers"]
            await ws.send_json({"type": "act", "action": {"actor": cur, "action": "move", "to": to}})
            got = await recv_until(ws, lambda d: d["type"] == "state" and d["steps"] == 1)
            assert {"type": "ok", "for": "act"} in got
            me = next(t for t in got[-1]["tokens"] if t["id"] == cur)
            assert me["pos"] == to
            await ws.close()
    run(go())
    assert ctl.session.actions[-1] == {"actor": cur, "action": "move", "to": ctl.session.actions[-1]["to"]}
    assert len(ctl.session.actions) == 1


def test_malformed_and_illegal_messages_get_an_error_and_change_nothing(served):
    ctl = served.ctl
    cur = ctl.session.current
    side = ctl.actor(cur).side
    enemy_side = "red" if side == "blue" else "blue"
    other = next(a.id for a in ctl.state.actors.values() if a.side == side and a.id != cur)
    enemy = next(a.id for a in ctl.state.actors.values() if a.side != side)
    before = served.call(ctl.session.fingerprint)
    bad = [
        "{not json", "[]", "null", '"act"', json.dumps({"type": "shout"}), json.dumps({"type": "act"}),
        json.dumps({"type": "act", "action": {"actor": cur, "action": "end_turn"}, "extra": 1}),
        json.dumps({"type": "act", "action": []}),
        json.dumps({"type": "act", "action": {"actor": cur}}),
        json.dumps({"type": "act", "action": {"actor": cur, "action": "attack", "target": enemy,
                                              "rolls": {"attack": 20}}}),                 # dice are the table's
        json.dumps({"type": "act", "action": {"actor": cur, "action": "move", "to": [1.5, 2, 0]}}),
        json.dumps({"type": "act", "action": {"actor": cur, "action": "move", "to": [10 ** 12, 0, 0]}}),
        json.dumps({"type": "act", "action": {"actor": cur, "action": "move", "to": [0, 0, 0, 0]}}),
        json.dumps({"type": "act", "action": {"actor": "x" * 200, "action": "end_turn"}}),
        json.dumps({"type": "act", "action": {"actor": other, "action": "end_turn"}}),        # not its turn
        json.dumps({"type": "act", "action": {"actor": enemy, "action": "end_turn"}}),        # not its character
        json.dumps({"type": "act", "action": {"actor": cur, "action": "fly_to_the_moon"}}),
        json.dumps({"type": "act", "action": {"actor": cur, "action": "move", "to": [6, 2, 0]}}),  # into the wall
        json.dumps({"type": "act", "action": {"actor": cur, "action": "damage", "target": enemy, "amount": 99}}),
        json.dumps({"type": "answer", "key": "nothing", "i": 0}),
        json.dumps({"type": "answer", "key": "k", "i": -1}),
        json.dumps({"type": "ping", "x": 1}),
        "[" * 4000,
    ]

    async def go():
        async with aiohttp.ClientSession() as s:
            ws = await s.ws_connect(base(served) + f"/ws?token={served.token(side)}")
            await recv_until(ws, lambda d: d["type"] == "state")
            for raw in bad:
                await ws.send_str(raw)
                got = (await recv_until(ws, lambda d: d["type"] in ("error", "ok")))[-1]
                assert got["type"] == "error" and got["error"], raw
                assert "\n" not in got["error"]
            await ws.send_bytes(b"\x00\x01")
            assert (await recv_until(ws, lambda d: d["type"] == "error"))[-1]["error"]
            await ws.close()
            ws = await s.ws_connect(base(served) + f"/ws?token={served.token(enemy_side)}")
            await recv_until(ws, lambda d: d["type"] == "state")
            await ws.send_json({"type": "act", "action": {"actor": cur, "action": "end_turn"}})   # the other side's
            assert (await recv_until(ws, lambda d: d["type"] in ("error", "ok")))[-1]["type"] == "error"
            await ws.close()
    run(go())
    assert served.call(ctl.session.fingerprint) == before
    assert ctl.session.actions == []
    assert M.parse('{"type": "ping"}') == {"type": "ping"}


def test_an_oversized_message_closes_the_socket_and_too_many_are_refused(served):
    async def go():
        async with aiohttp.ClientSession() as s:
            ws = await s.ws_connect(base(served) + f"/ws?token={served.token('red')}")
            await recv_until(ws, lambda d: d["type"] == "state")
            for _ in range(120):                              # far over 20 a second (a burst of 40)
                await ws.send_str('{"type": "ping"}')
            got = await recv_until(ws, lambda d: d["type"] == "error")
            assert "too many messages" in got[-1]["error"]
            await ws.close()
            ws = await s.ws_connect(base(served) + f"/ws?token={served.token('red')}")
            await recv_until(ws, lambda d: d["type"] == "state")
            await ws.send_str('{"type": "ping", "pad": "' + "x" * 10_000 + '"}')
            m = await asyncio.wait_for(ws.receive(), 10)
            while m.type == aiohttp.WSMsgType.TEXT:
                m = await asyncio.wait_for(ws.receive(), 10)
            assert m.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING)
            assert ws.close_code == 1009                      # message too big
    run(go())
    assert served.ctl.session.actions == []


def test_a_dropped_connection_resumes_and_catches_up_in_order(served):
    ctl = served.ctl
    rng = random.Random(2)

    async def go():
        async with aiohttp.ClientSession() as s:
            url = base(served) + f"/ws?token={served.token('red')}"
            ws = await s.ws_connect(url)
            first = (await recv_until(ws, lambda d: d["type"] == "state"))[-1]
            last = first["seq"]
            await ws.close()                                   # dropped
            loop = asyncio.get_running_loop()
            for _ in range(5):                                 # the table plays on meanwhile
                await loop.run_in_executor(None, lambda: served.call(lambda: ctl.step(next_action(ctl, rng))))
            now = served.table.seq
            assert now >= last + 5
            ws = await s.ws_connect(url + f"&since={last}")
            got = await recv_until(ws, lambda d: d["type"] == "state" and d["seq"] == now)
            assert [d["seq"] for d in got] == list(range(last + 1, now + 1))       # every one, in order, once
            await ws.close()
    run(go())


def test_leak_every_message_a_side_receives_through_a_scripted_fight(served):
    """Every HTTP response and WebSocket message each side gets while 80 steps are played (some by the pages)
    holds no id, name or position of a character that side cannot see at that moment, and no enemy's exact HP or
    AC. The truth is taken on the table's thread right after each step, by the rules' sight function."""
    ctl = served.ctl
    rng = random.Random(7)
    truths: dict[int, dict] = {}

    def step_and_truth(act):
        if act is not None:
            ctl.step(act)
        served.table.publish()
        return served.table.seq, truth(ctl)

    seq, t = served.call(step_and_truth, None)
    truths[seq] = t
    hidden_ever = set()

    async def go():
        async with aiohttp.ClientSession() as s:
            wss = {side: await s.ws_connect(base(served) + f"/ws?token={served.token(side)}") for side in ("blue", "red")}
            received: dict[str, list] = {"blue": [], "red": []}
            http: dict[str, list] = {"blue": [], "red": []}
            loop = asyncio.get_running_loop()
            for i in range(80):
                cur = ctl.session.current
                side = ctl.actor(cur).side
                act = await loop.run_in_executor(None, lambda: served.call(next_action, ctl, rng, True))
                if i % 4 == 0 and "rolls" not in act:          # a page takes this one
                    await wss[side].send_json({"type": "act", "action": act})
                    got = await recv_until(wss[side], lambda d: d["type"] in ("ok", "error"))
                    received[side] += got
                    sq, tr = await loop.run_in_executor(None, lambda: served.call(step_and_truth, None))
                else:
                    sq, tr = await loop.run_in_executor(None, lambda a=act: served.call(step_and_truth, a))
                truths[sq] = tr
                for sd in ("blue", "red"):
                    hidden_ever.update(h[0] for h in tr[sd][0])
                    r = await s.get(base(served) + f"/api/state?token={served.token(sd)}")
                    http[sd].append(await r.json())
            for sd, ws in wss.items():
                received[sd] += await recv_until(ws, lambda d, n=served.table.seq: d["type"] == "state" and d["seq"] == n)
                await ws.close()
            return received, http
    received, http = run(go())
    problems = []
    for side in ("blue", "red"):
        for msg in received[side] + http[side]:
            n = msg.get("seq")
            if n is None:
                t = truths[max(truths)]
                problems += [f"{side} reply: {p}" for p in leaks(msg, side, t)]
                continue
            problems += [f"{side} seq {n}: {p}" for p in leaks(msg, side, truths[n])]
    assert not problems, "\n".join(problems[:20])
    assert hidden_ever, "the fight never hid anyone: the test would prove nothing"
    states = [m for m in received["blue"] if m.get("type") == "state"]
    assert any(m["legal"] for m in states) and any(t.get("health") for m in states for t in m["tokens"])
    assert any(t.get("health") in ("hurt", "bloodied") for m in states for t in m["tokens"]), "nobody was hurt"


def test_eight_pages_through_a_300_step_fight_get_every_update_in_order(served):
    ctl = served.ctl
    rng = random.Random(11)

    import time

    published: dict[int, float] = {}
    push = served.table.on_update

    def timed(side, seq, text):                  # when the table handed each update to the server
        published.setdefault(seq, time.monotonic())
        push(side, seq, text)
    served.table.on_update = timed
    late: list[float] = []

    async def page(s, side, out):
        ws = await s.ws_connect(base(served) + f"/ws?token={served.token(side)}&since=0")
        seqs = []
        while True:
            m = await asyncio.wait_for(ws.receive(), 60)
            if m.type != aiohttp.WSMsgType.TEXT:
                break
            d = json.loads(m.data)
            if d["type"] == "state":
                if d["seq"] in published:
                    late.append(time.monotonic() - published[d["seq"]])
                seqs.append(d["seq"])
                if d.get("final"):
                    break
                if d["steps"] >= 300:
                    break
        out.append((side, seqs))
        await ws.close()

    async def go():
        async with aiohttp.ClientSession() as s:
            out: list = []
            tasks = [asyncio.ensure_future(page(s, side, out)) for side in ("blue", "red") * 4]
            await asyncio.sleep(0.5)
            loop = asyncio.get_running_loop()

            def play():
                for _ in range(300):
                    served.call(lambda: ctl.step(next_action(ctl, rng)) or ctl.step({"actor": ctl.session.current,
                                                                                       "action": "end_turn"}))
            await loop.run_in_executor(None, play)
            await asyncio.gather(*tasks)
            return out
    out = run(go())
    assert len(ctl.session.actions) >= 300
    final = served.table.seq
    assert len(out) == 8
    for side, seqs in out:
        assert seqs == list(range(1, final + 1)), (side, seqs[:5], seqs[-5:], final)
    late.sort()
    print(f"8 pages, {final} updates: from the table's push to the page, median {late[len(late) // 2] * 1000:.1f} ms, "
          f"p99 {late[int(len(late) * 0.99)] * 1000:.1f} ms, worst {late[-1] * 1000:.1f} ms")
    assert late[len(late) // 2] < 0.1


HARPY = """
name = "Harpy and knight"
ruleset = "dnd5e"
seed = 3

[map]
size = [12, 12, 8]

[[characters]]
id = "harpy"
name = "Harpy"
kind = "harpy"
side = "sky"
at = [5, 4, 1]
flying = true
pc = true
feats = ["lucky"]
initiative = 20

[[characters]]
id = "odo"
name = "Sir Odo"
kind = "knight"
side = "ground"
at = [5, 5, 0]
feats = ["lucky"]
initiative = 10
"""


def test_the_rules_questions_are_asked_on_the_deciding_players_page(tmp_path):
    """DND-F32: the attacker's player is asked on the sky's page whether to spend a luck point, then the target's
    player on the ground's page; the other side's page is asked nothing and cannot answer."""
    from engine.scene import load_scene

    p = tmp_path / "harpy.toml"
    p.write_text(HARPY)
    ctl = Controller(load_scene(p))
    ctl.set_ask(True)                      # as the window: the players' choices asked at their moment
    h = Headless(ctl).start()

    async def go():
        async with aiohttp.ClientSession() as s:
            sky = await s.ws_connect(base(h) + f"/ws?token={h.token('sky')}")
            ground = await s.ws_connect(base(h) + f"/ws?token={h.token('ground')}")
            await recv_until(sky, lambda d: d["type"] == "state")
            await recv_until(ground, lambda d: d["type"] == "state")
            await sky.send_json({"type": "act", "action": {"actor": "harpy", "action": "attack", "target": "odo",
                                                            "weapon": "claws"}})
            st = (await recv_until(sky, lambda d: d["type"] == "state" and d["question"]))[-1]
            assert st["question"]["key"] == "lucky" and [o["label"] for o in st["question"]["options"]] == ["Yes", "No"]
            g = (await recv_until(ground, lambda d: d["type"] == "state"))[-1]
            assert g["question"] is None
            await ground.send_json({"type": "answer", "key": "lucky", "i": 0})           # not the ground's to answer
            assert (await recv_until(ground, lambda d: d["type"] in ("ok", "error")))[-1]["type"] == "error"
            await sky.send_json({"type": "answer", "key": "lucky", "i": 0})              # spend a point
            g = (await recv_until(ground, lambda d: d["type"] == "state" and d["question"]))[-1]
            assert g["question"]["key"] == "reactions.odo.lucky"
            await ground.send_json({"type": "answer", "key": "reactions.odo.lucky", "i": 0})
            await recv_until(ground, lambda d: d["type"] == "state" and d["steps"] == 1)
            await sky.close()
            await ground.close()
    try:
        run(go())
        act = ctl.session.actions[0]
        assert act["lucky"] is True and act["reactions"] == {"odo": {"lucky": True}}
    finally:
        h.stop()


@pytest.mark.parametrize("name", ["baton_passing", "air_low_wall", "baton_skyfall"])
def test_leak_the_views_of_the_shipped_scripted_fights(name):
    """The same leak check on each side's view after every step of shipped scripts (another ruleset, flyers): the
    view alone, as every message carries it."""
    from engine.rules.core import Illegal
    from engine.scene import load_scene
    from engine.serve.view import side_view

    ctl = Controller(load_scene(name))
    caches: dict = {}
    hidden_seen = 0
    for i, act in enumerate([None] + list(ctl.scene.spec.script)):
        if act is not None:
            a = dict(act)
            a.pop("illegal", None)
            try:
                ctl.session.step(a)
            except Illegal:
                continue
            ctl.state_version += 1
        t = truth(ctl)
        for side in t:
            v = json.loads(json.dumps(side_view(ctl, side, caches.setdefault(side, {}))))
            found = leaks(v, side, t)
            assert not found, (i, side, found[:5])
            hidden_seen += len(t[side][0])
    if name == "baton_passing":               # the yard's brick wall hides a brigand from the party and back
        assert hidden_seen, "nobody hidden: the check proves nothing here"


def test_the_pages_action_labels_are_words_not_raw_keys(tmp_path):
    """The players' page listed "end turn stay_aloft False" and "help target Vess": a legal action reads as words."""
    from engine.app.tokens import short_name
    from engine.serve.view import action_label

    ctl = Controller(load(tmp_path))
    a, b = list(ctl.session.state.actors)[:2]
    assert action_label(ctl, {"actor": a, "action": "end_turn", "stay_aloft": False}) == "end turn (stay aloft: no)"
    assert action_label(ctl, {"actor": a, "action": "help", "target": b}) == \
        f"help {short_name(ctl.session.state.actors[b])}"
