// The player's page: the map (the exporter's GLB) in three.js, the side's characters as tokens at true altitude
// with drop lines, rings and labels, and the side's panels. Everything drawn came from the table already filtered
// to what this side sees (engine/serve/view.py); the page only draws it and sends the player's choices back.
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';

const token = decodeURIComponent(location.pathname.split('/').pop());
const $ = (id) => document.getElementById(id);
const OWN = 0x4da3ff, ENEMY = 0xff5a4d, CUR = 0xffd34d;

const view = $('view');
const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
renderer.setPixelRatio(window.devicePixelRatio || 1);
view.appendChild(renderer.domElement);
const scene = new THREE.Scene();
scene.background = new THREE.Color(0x9fb8cc);
scene.add(new THREE.HemisphereLight(0xffffff, 0x556644, 1.6));
const sun = new THREE.DirectionalLight(0xffffff, 1.8);
sun.position.set(30, 60, 20);
scene.add(sun);
const camera = new THREE.PerspectiveCamera(50, 1, 0.1, 2000);
const controls = new OrbitControls(camera, renderer.domElement);
controls.enableDamping = true;
const mapGroup = new THREE.Group();
const tokGroup = new THREE.Group();
scene.add(mapGroup, tokGroup);

let state = null, lastSeq = 0, ws = null, cm = 1.5, lm = 1.0, followId = '';
const tokObjs = new Map();       // id -> {group, label}
window.aerie = { state: null, seq: 0, sent: [], received: [], screenOf, drop: () => ws && ws.close() };

// Aerie (x east, y north, z up; cells and layers) -> glTF / three.js (+Y up, north = -Z)
function cellPos(x, y, layer, fp = 1) {
  return new THREE.Vector3((x + fp / 2) * cm, layer * lm, -(y + fp / 2) * cm);
}

function resize() {
  const w = view.clientWidth, h = view.clientHeight;
  renderer.setSize(w, h, false);
  renderer.domElement.style.width = w + 'px';
  renderer.domElement.style.height = h + 'px';
  camera.aspect = w / Math.max(h, 1);
  camera.updateProjectionMatrix();
}
window.addEventListener('resize', resize);
resize();

function api(path) { return `${path}${path.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}`; }

function loadMap() {
  fetch(api('/api/map.glb')).then((r) => {
    if (!r.ok) throw new Error(`map: ${r.status}`);
    return r.arrayBuffer();
  }).then((buf) => new GLTFLoader().parse(buf, '', (g) => {
    mapGroup.add(g.scene);
    document.body.dataset.map = 'loaded';
  }, (e) => { document.body.dataset.map = 'error'; say(String(e), true); }))
    .catch((e) => { document.body.dataset.map = 'error'; say(String(e), true); });
}

function frameMap(size) {
  const c = new THREE.Vector3(size[0] * cm / 2, 0, -size[1] * cm / 2);
  const r = Math.max(size[0] * cm, size[1] * cm, size[2] * lm);
  controls.target.copy(c);
  camera.position.set(c.x + r * 0.15, r * 0.7, c.z + r * 0.75);
  controls.update();
}

function say(text, error = false) {
  const m = $('msg');
  m.textContent = text;
  m.className = error ? 'error' : '';
}

function send(msg) {
  if (!ws || ws.readyState !== WebSocket.OPEN) { say('not connected: the page reconnects', true); return; }
  window.aerie.sent.push(msg);
  ws.send(JSON.stringify(msg));
}

function connect() {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  ws = new WebSocket(`${proto}//${location.host}/ws?token=${encodeURIComponent(token)}&since=${lastSeq}`);
  ws.onopen = () => { $('conn').textContent = 'connected'; document.body.dataset.conn = 'open'; };
  ws.onclose = () => {
    $('conn').textContent = 'reconnecting...';
    document.body.dataset.conn = 'closed';
    setTimeout(connect, 1000);
  };
  ws.onmessage = (ev) => {
    const m = JSON.parse(ev.data);
    if (m.type === 'state') {
      if (m.seq <= lastSeq) return;
      lastSeq = m.seq;
      window.aerie.received.push(m.seq);
      show(m);
    } else if (m.type === 'error') {
      say(m.error, true);
    } else if (m.type === 'ok') {
      say(m.waiting ? `sent: ${m.waiting}` : 'done');
    } else if (m.type === 'preview') {
      say(numbers(m.numbers));
    }
  };
}

function numbers(n) {
  if (!n) return '';
  const bits = [];
  if (n.cost_m !== undefined) bits.push(`cost ${n.cost_m} m`);
  if (n.left_after_m !== undefined) bits.push(`left ${n.left_after_m} m`);
  if (n.hit_chance !== undefined) bits.push(`hit ${Math.round(n.hit_chance * 100)}%`);
  if (n.cover) bits.push(`cover ${n.cover}`);
  if (n.distance_m !== undefined) bits.push(`${n.distance_m} m`);
  if (n.illegal) bits.push(`not possible (${n.illegal})`);
  return bits.join(', ');
}

function makeToken(t) {
  const g = new THREE.Group();
  const col = t.own ? OWN : ENEMY;
  const r = 0.32 * cm * t.footprint;
  const h = Math.max(t.height, 1) * lm * 0.9;
  const body = new THREE.Mesh(new THREE.CylinderGeometry(r, r, h, 20),
    new THREE.MeshStandardMaterial({ color: col, roughness: 0.6 }));
  body.position.y = h / 2;
  body.userData.id = t.id;
  const ring = new THREE.Mesh(new THREE.RingGeometry(r * 1.15, r * 1.45, 32),
    new THREE.MeshBasicMaterial({ color: col, side: THREE.DoubleSide }));
  ring.rotation.x = -Math.PI / 2;
  ring.position.y = 0.03;
  const lineGeo = new THREE.BufferGeometry().setFromPoints([new THREE.Vector3(), new THREE.Vector3()]);
  const drop = new THREE.Line(lineGeo, new THREE.LineBasicMaterial({ color: 0xffffff }));
  g.add(body, ring, drop);
  const label = document.createElement('div');
  label.className = 'label';
  $('labels').appendChild(label);
  const o = { group: g, body, ring, drop, label };
  tokGroup.add(g);
  return o;
}

function placeToken(o, t) {
  const p = cellPos(t.pos[0], t.pos[1], t.pos[2], t.footprint);
  o.group.position.copy(p);
  const fall = (t.pos[2] - t.floor) * lm;          // the drop line: from the feet to what is below
  o.drop.geometry.setFromPoints([new THREE.Vector3(0, 0, 0), new THREE.Vector3(0, -fall, 0)]);
  o.drop.visible = fall > 0;
  o.ring.material.color.setHex(t.current ? CUR : (t.own ? OWN : ENEMY));
  o.body.visible = !t.dead;
  const hp = t.hp !== undefined ? `${t.hp}/${t.max_hp}` : t.health;
  o.label.textContent = `${t.name} - ${hp}` + (t.pos[2] > t.floor ? ` (${t.pos[2] - t.floor} up)` : '');
  o.label.className = `label ${t.own ? 'own' : 'enemy'}${t.current ? ' current' : ''}`;
  o.t = t;
}

function show(s) {
  const first = state === null;
  state = s;
  window.aerie.state = s;
  window.aerie.seq = s.seq;
  cm = s.map.cell_m; lm = s.map.layer_m;
  if (first) { frameMap(s.map.size); loadMap(); }
  const seen = new Set();
  for (const t of s.tokens) {
    seen.add(t.id);
    const o = tokObjs.get(t.id) || makeToken(t);
    tokObjs.set(t.id, o);
    placeToken(o, t);
  }
  for (const [id, o] of tokObjs) {            // no longer seen: gone from the page
    if (!seen.has(id)) { tokGroup.remove(o.group); o.label.remove(); tokObjs.delete(id); }
  }
  $('side').textContent = `Side ${s.side}`;
  const cur = s.tokens.find((t) => t.current);
  $('turn').textContent = s.over ? 'The fight is over.' : (s.turn.mine ? `Your turn: ${cur ? cur.name : ''}`
    : `Round ${s.turn.round}: ${cur ? cur.name + "'s turn" : 'someone you cannot see acts'}`);
  $('turn').className = s.turn.mine ? 'mine' : '';
  fill($('order'), s.order.map((r) => [r.name, (r.id === s.turn.current ? 'cur ' : '') + (r.own ? 'own' : 'enemy')]));
  fill($('chars'), s.tokens.map((t) => [`${t.name}: ${t.hp !== undefined ? `${t.hp}/${t.max_hp} HP` : t.health}`
    + (t.conditions.length ? ` (${t.conditions.join(', ')})` : ''), t.own ? 'own' : 'enemy']));
  const fsel = $('follow');
  const keep = fsel.value;
  fsel.innerHTML = '<option value="">nobody</option>';
  for (const t of s.tokens) fsel.add(new Option(t.name, t.id));
  fsel.value = s.tokens.some((t) => t.id === keep) ? keep : '';
  followId = fsel.value;
  showActions(s);
  showQuestion(s);
  $('log').textContent = s.log.slice(-25).join('\n');
  document.body.dataset.seq = String(s.seq);
}

function fill(list, rows) {
  list.innerHTML = '';
  for (const [text, cls] of rows) {
    const li = document.createElement('li');
    li.textContent = text;
    li.className = cls;
    list.appendChild(li);
  }
}

function showActions(s) {
  const box = $('acts');
  box.innerHTML = '';
  if (!s.legal) return;
  const h = document.createElement('h3');
  h.textContent = `Actions (${s.legal.moves.length} cells to move to: click one; click an enemy to attack)`;
  box.appendChild(h);
  for (const a of s.legal.actions) {
    const b = document.createElement('button');
    b.textContent = a.label;
    b.dataset.action = a.action.action;
    if (a.preview) {
      const n = document.createElement('div');
      n.className = 'nums';
      n.textContent = numbers(a.preview);
      b.appendChild(n);
    }
    b.onclick = () => send({ type: 'act', action: a.action });
    box.appendChild(b);
  }
}

function showQuestion(s) {
  const box = $('question');
  box.innerHTML = '';
  const q = s.question;
  if (!q) return;
  const h = document.createElement('h3');
  h.textContent = `${q.label}: ${q.question}`;
  box.appendChild(h);
  for (const o of q.options) {
    const b = document.createElement('button');
    b.textContent = o.label + (o.does ? ` - ${o.does}` : '') + (o.default ? ' (default)' : '');
    b.onclick = () => send({ type: 'answer', key: q.key, i: o.i });
    box.appendChild(b);
  }
}

// picking: a click on an enemy attacks it, a click on the map moves there (one of the listed cells)
const ray = new THREE.Raycaster();
function pick(ev) {
  const r = renderer.domElement.getBoundingClientRect();
  const p = new THREE.Vector2(((ev.clientX - r.left) / r.width) * 2 - 1, -((ev.clientY - r.top) / r.height) * 2 + 1);
  ray.setFromCamera(p, camera);
  return ray;
}
function cellAt(ev) {
  const hits = pick(ev).intersectObjects(mapGroup.children, true);
  if (!hits.length) return null;
  const h = hits[0];
  const n = h.face ? h.face.normal.clone().transformDirection(h.object.matrixWorld) : new THREE.Vector3(0, 1, 0);
  const q = h.point.clone().addScaledVector(n, 0.05);        // into the empty cell in front of the face
  return [Math.floor(q.x / cm), Math.floor(-q.z / cm), Math.max(0, Math.floor(q.y / lm + 1e-6))];
}
function moveTo(c) {
  if (!state || !state.legal || !c) return null;
  const fly = parseInt($('fly').value || '0', 10) || 0;
  const want = c[2] + fly;
  let best = null;
  for (const m of state.legal.moves) {
    if (m[0] !== c[0] || m[1] !== c[1]) continue;
    if (best === null || Math.abs(m[2] - want) < Math.abs(best[2] - want)) best = m;
  }
  return best;
}
let downAt = null;
renderer.domElement.addEventListener('pointerdown', (ev) => { downAt = [ev.clientX, ev.clientY]; });
renderer.domElement.addEventListener('pointerup', (ev) => {
  if (!downAt || Math.hypot(ev.clientX - downAt[0], ev.clientY - downAt[1]) > 5) return;   // a drag orbits
  clickAt(ev);
});
function clickAt(ev) {
  if (!state || !state.legal) return;
  const bodies = [];
  for (const o of tokObjs.values()) bodies.push(o.body);
  const hit = pick(ev).intersectObjects(bodies, false)[0];
  if (hit) {
    const id = hit.object.userData.id;
    const a = state.legal.actions.find((x) => x.action.action === 'attack' && x.action.target === id);
    if (a) { send({ type: 'act', action: a.action }); return; }
  }
  const m = moveTo(cellAt(ev));
  if (m) send({ type: 'act', action: { actor: state.legal.actor, action: 'move', to: m } });
  else say('no move there: choose one of the cells your character can reach', true);
}
let lastHover = 0, hoverKey = '';
renderer.domElement.addEventListener('pointermove', (ev) => {
  if (!state || !state.legal || ev.buttons) return;
  const now = performance.now();
  if (now - lastHover < 250) return;
  const m = moveTo(cellAt(ev));
  if (!m || m.join() === hoverKey) return;
  lastHover = now;
  hoverKey = m.join();
  send({ type: 'preview', action: { actor: state.legal.actor, action: 'move', to: m } });
});

// the screen point of a cell (the browser test clicks it as a player would)
function screenOf(x, y, layer) {
  const v = cellPos(x, y, layer).project(camera);
  const r = renderer.domElement.getBoundingClientRect();
  return [r.left + (v.x + 1) / 2 * r.width, r.top + (1 - v.y) / 2 * r.height];
}

$('top').onclick = () => {
  if (!state) return;
  const s = state.map.size;
  const c = new THREE.Vector3(s[0] * cm / 2, 0, -s[1] * cm / 2);
  controls.target.copy(c);
  camera.position.set(c.x, Math.max(s[0], s[1]) * cm * 1.3, c.z + 0.01);
  controls.update();
};
$('orbit').onclick = () => { if (state) frameMap(state.map.size); };
$('follow').onchange = (ev) => { followId = ev.target.value; };

function animate() {
  requestAnimationFrame(animate);
  if (followId && tokObjs.has(followId)) {
    const p = tokObjs.get(followId).group.position;
    const d = p.clone().sub(controls.target);
    controls.target.add(d);
    camera.position.add(d);
  }
  controls.update();
  renderer.render(scene, camera);
  const w = renderer.domElement.clientWidth, h = renderer.domElement.clientHeight;
  for (const o of tokObjs.values()) {
    const top = o.group.position.clone();
    top.y += Math.max(o.t.height, 1) * lm + 0.2;
    const v = top.project(camera);
    const vis = v.z < 1 && Math.abs(v.x) < 1.1 && Math.abs(v.y) < 1.1;
    o.label.style.display = vis ? '' : 'none';
    o.label.style.left = `${(v.x + 1) / 2 * w}px`;
    o.label.style.top = `${(1 - v.y) / 2 * h}px`;
  }
}
connect();
animate();
