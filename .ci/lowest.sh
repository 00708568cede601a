#!/usr/bin/env bash
# The lowest versions pyproject.toml allows: install them (uv --resolution lowest-direct) into a throwaway
# environment and run the check tier (the pure tests) and the headless-GL tests with them: the window tests and
# the slow profiles add nothing a version bound could break that these miss, and `make test` already ran them. Then the newest numpy major (2) with the lowest
# trimesh, the pair the bound on trimesh exists for (4.0-4.3 call ndarray.ptp, gone in numpy 2).
set -euo pipefail
cd "$(dirname "$0")/.."
UV=${UV:-.venv/bin/uv}
if [ ! -x "$UV" ]; then        # uv from PyPI, in its own throwaway environment
  python3 -m venv /tmp/aerie-uv && /tmp/aerie-uv/bin/python -m pip install -q uv && UV=/tmp/aerie-uv/bin/uv
fi
T=$(mktemp -d /tmp/aerie-lowest.XXXXXX)
trap 'rm -rf "$T"' EXIT
"$UV" venv -q -p python3 "$T/env"
"$UV" pip install -q --python "$T/env/bin/python" --resolution lowest-direct '.[test]'
echo "== lowest allowed versions:"
"$UV" pip list --python "$T/env/bin/python" 2>/dev/null |
  grep -iE '^(numpy|moderngl|glcontext|pyglet|trimesh|msgspec|pillow|imageio|imageio-ffmpeg|embreex|rtree|pytest) '
"$T/env/bin/python" -m pytest -q -p no:cacheprovider -n auto --dist worksteal -m "(unit and not slow) or gl"

echo "== numpy 2 with the lowest trimesh:"
"$UV" pip install -q --python "$T/env/bin/python" 'numpy==2.0.*'
"$UV" pip list --python "$T/env/bin/python" 2>/dev/null | grep -iE '^(numpy|trimesh) '
"$T/env/bin/python" -m pytest -q -p no:cacheprovider -n auto tests/render/test_render_gl.py tests/render/test_models.py tests/world/test_los.py
