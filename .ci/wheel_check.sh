#!/usr/bin/env bash
# Build the wheel, install it into a fresh virtual environment outside the checkout, and use it from a
# temporary folder the way a new user would: shipped scenes by name, a copied scene using @assets/...,
# the rules, a still and a short video. No display needed (headless EGL).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PY=${PY:-python3}
BUILD_PY=${BUILD_PY:-$ROOT/.venv/bin/python}
[ -x "$BUILD_PY" ] || BUILD_PY=$PY
T=$(mktemp -d /tmp/aerie-wheel.XXXXXX)
trap 'rm -rf "$T"' EXIT
say() { printf '\n== %s\n' "$*"; }

say "build the wheel"
"$BUILD_PY" -m pip wheel -q --no-deps -w "$T/dist" "$ROOT"
WHEEL=$(ls "$T"/dist/aerie_sandbox-*.whl)
ls -l "$WHEEL"
"$BUILD_PY" - "$WHEEL" <<'PYEOF'
import sys, zipfile
names = set(zipfile.ZipFile(sys.argv[1]).namelist())
need = ["engine/_data/shaders/terrain.frag", "engine/_data/assets/maps/town_square.vox",
        "engine/_data/assets/models/archer.glb", "engine/_data/scenes/showcase.toml", "engine/resources.py"]
missing = [n for n in need if n not in names]
assert not missing, f"the wheel lacks {missing}"
# test and developer code stays in the checkout (tests/, tools/): none of it, nor what moved out of the package
dev_only = ["engine/rules/reach_reference.py", "engine/render/make_models.py"]
shipped = sorted(n for n in names if n in dev_only or n.split("/")[0] in ("tests", "tools"))
assert not shipped, f"the wheel holds test or developer code: {shipped}"
print(len(names), "files in the wheel, the data folders among them; no test or developer module")
PYEOF

say "a fresh virtual environment, the wheel with the video extra"
"$PY" -m venv "$T/venv"
"$T/venv/bin/python" -m pip install -q "$WHEEL[video]"
A=$T/venv/bin/aerie

mkdir "$T/work"
cd "$T/work"
unset DISPLAY WAYLAND_DISPLAY
where=$("$T/venv/bin/python" -c "import engine.resources as r; print(r.resource_dir('scenes'))")
echo "shipped scenes: $where"
case "$where" in "$ROOT"*) echo "the installed package reads the checkout"; exit 1;; esac

say "aerie --version"
"$A" --version

say "shipped showcase by name"
"$A" check showcase
"$A" query showcase --from ground_archer --to wall_archer
"$A" query showcase --from ground_archer --to wall_archer --json >q.json
"$T/venv/bin/python" -c "import json; d=json.load(open('q.json')); assert d, d"

say "a copied scene that uses @assets/..."
cp "$ROOT/scenes/showcase.toml" my_scene.toml
grep -q '"@assets/' my_scene.toml
"$A" check my_scene.toml
"$A" query my_scene.toml --from harpy_high --to wall_archer

say "aerie run on a demo scene"
"$A" run air_fall_table >run.txt
tail -7 run.txt
"$A" run baton_skyfall --seed 3 >/dev/null

say "the SRD bestiary from the wheel: all 334 creatures, and a scene that names them by srd id"
"$A" compendium creatures --json >creatures.json
"$T/venv/bin/python" -c "
import json; c = json.load(open('creatures.json'))
assert len(c) == 334 and len({x['id'] for x in c}) == 334, len(c)
red = next(x for x in c if x['id'] == 'young-red-dragon'); assert red['hp'] == 178 and red['ac'] == 18, red
print(len(c), 'creatures;', sum(x['fly_speed_m'] > 0 for x in c), 'fly')"
"$A" compendium creatures dragon --fly >dragons.txt && head -3 dragons.txt
"$A" check srd_flyers
"$A" run dragon_roofs --seed 1 >/dev/null

say "aerie simulate on the shipped showcase (one row per fight, the picture)"
"$A" simulate showcase --runs 2 --workers 2 --policy red=aggressive -o fights.csv --report report.png
[ "$(wc -l <fights.csv)" -eq 3 ] && [ -s report.png ]

say "aerie render"
"$A" render showcase -o x.png --size 160x90
"$T/venv/bin/python" -c "
from PIL import Image
im = Image.open('x.png'); assert im.size == (160, 90), im.size
px = im.convert('RGB').getcolors(160 * 90); assert len(px) > 20, 'a flat image'
print('x.png:', im.size, len(px), 'colours')"

say "a one-second flythrough (stderr is a file: progress is one line per milestone)"
"$A" flythrough showcase -o fly.mp4 --seconds 1 --fps 12 --size 160x90 2>progress.txt
cat progress.txt
[ -s fly.mp4 ] && ! grep -q $'\r' progress.txt

say "aerie demo without a display: the report, a still and the 12 s fly-through"
"$A" demo >demo.txt 2>demo.err
tail -3 demo.txt
[ -s out/showcase.png ] && [ -s out/showcase.mp4 ]

say "aerie play without a display: one line saying what to do"
set +e
"$A" play showcase 2>err.txt
rc=$?
set -e
cat err.txt; echo
[ "$rc" = 2 ] && ! grep -q Traceback err.txt

if command -v xvfb-run >/dev/null; then
  say "the window (the one aerie play opens) on a virtual display, from the wheel"
  xvfb-run -a -s "-screen 0 1280x800x24" "$T/venv/bin/python" -m engine.app.capture showcase -o win.png --size 640x360
  "$T/venv/bin/python" -c "
from PIL import Image
im = Image.open('win.png'); assert im.size == (640, 360), im.size
assert len(im.convert('RGB').getcolors(640 * 360)) > 50, 'a flat window'
print('win.png:', im.size)"
fi

say "a missing extra is one line naming it (bench is not installed here)"
set +e
"$A" bench los --quick 2>err.txt
rc=$?
set -e
cat err.txt
[ "$rc" = 2 ] && grep -q "aerie-sandbox\[bench\]" err.txt && ! grep -q Traceback err.txt

if [ -n "${AERIE_CHECK_OUT:-}" ]; then    # keep the pictures to look at
  mkdir -p "$AERIE_CHECK_OUT" && cp x.png out/showcase.png "$AERIE_CHECK_OUT"/ && { cp win.png "$AERIE_CHECK_OUT"/ || true; }
fi
say "wheel check: all passed"
