# Two commands do all the set-up on a fresh clone: `make demo` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

# Python's bytecode is cached (__pycache__, ignored by git) even where the environment says not to write it: the tests
# start a few hundred `python -m engine` processes and six workers each rewrite ~200 test modules' asserts, and
# compiling it all again in each of them cost about a sixth of make test's CPU.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: demo check test lint fuzz slow slow-list venv bench wheel-check lowest ci clean

# Tiers (tests/README.md). pytest-xdist spreads the tests over the cores; `worksteal` keeps a worker that drew the
# long tests from finishing last. The window and GL tests mostly wait on their own Xvfb and llvmpipe subprocesses,
# so `make test` runs a few more workers than cores.
WORKERS ?= 6
# llvmpipe draws with one thread per core by default; with six workers' windows and GL contexts side by side on two
# cores, one rasterizer thread each costs less CPU (measured 8% less for the prompts' window tests, the same pixels)
PYTEST := LP_NUM_THREADS=1 $(BIN)/python -m pytest -q -p no:cacheprovider --dist worksteal

# Everything: the package (editable) with the video and bench extras, the test tools, ruff, mypy and uv, and
# aerie simulate's Ray and parquet extras (cluster, parquet: their tests run in CI).
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test,dev,cluster,parquet]'
	touch $(STAMP)

venv: $(STAMP)

demo: $(STAMP)
	$(BIN)/aerie demo

# What a developer runs after an edit (at most a minute): every pure test but the slow ones, and ruff.
check: $(STAMP)
	$(BIN)/ruff check engine tests tools
	$(BIN)/python -m compileall -q -j 0 engine tools
	$(PYTEST) -n auto -m "unit and not slow"

# Everything (at most five minutes on two cores): every test of every tier, the long profiles at their short
# counts, then ruff and mypy.
test: $(STAMP)
	$(BIN)/ruff check engine tests tools
	$(BIN)/python -m compileall -q -j 0 engine tools
	# mypy runs beside the tests: it fills the cores the last long tests leave idle; either failing fails make test.
	# One collection first, beside mypy: it writes the test modules' assert-rewritten bytecode once, which the
	# workers then read (on a fresh clone all six rewrote all of it at once: 46 s of CPU collecting, 22 s after one
	# 11 s collection); its errors, if any, the run itself reports
	$(BIN)/mypy & pid=$$!; $(PYTEST) --collect-only -q > /dev/null 2>&1; $(PYTEST) -n $(WORKERS); rc=$$?; \
		wait $$pid || exit 1; exit $$rc

# ruff and mypy over the package, the tests and the tools (the folders mypy checks are in pyproject.toml)
lint: $(STAMP)
	$(BIN)/ruff check engine tests tools
	$(BIN)/mypy

# the long fuzz profile (docs/reliability.md): 10,000 random cases per target; figures in out/fuzz-report.json
fuzz: $(STAMP)
	mkdir -p out
	AERIE_FUZZ=1 AERIE_FUZZ_REPORT=out/fuzz-report.json $(BIN)/python -m pytest -q -p no:cacheprovider tests/fuzz

# tests/slow.txt again: the pure tests over a quarter of a second of CPU, measured (make check leaves them to make test)
slow-list: $(STAMP)
	mkdir -p out
	rm -f out/cpu.jsonl
	AERIE_SLOW_LIST=off AERIE_CPU_REPORT=out/cpu.jsonl $(PYTEST) -n auto -m "unit and not slow" || true
	$(BIN)/python tools/slow_list.py out/cpu.jsonl

# the long slow profile: the slow tests at their full counts (every game, every cell, every kill point)
slow: $(STAMP)
	AERIE_SLOW=1 $(PYTEST) -n auto -m slow

bench: $(STAMP)
	$(BIN)/aerie bench los
	$(BIN)/aerie bench rules
	$(BIN)/aerie bench render

# The wheel, installed in a fresh environment outside the checkout and used from a temporary folder.
wheel-check: $(STAMP)
	bash .ci/wheel_check.sh

# The test suite against the lowest versions pyproject.toml allows.
lowest: $(STAMP)
	bash .ci/lowest.sh

ci:
	bash .ci/run

clean:
	rm -rf $(VENV) out build dist
