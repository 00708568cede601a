# Two commands do all the set-up on a fresh clone: `make demo` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint fuzz venv bench wheel-check lowest ci clean

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

test: $(STAMP)
	$(BIN)/python -m pytest -q
	$(MAKE) --no-print-directory lint

# ruff and mypy over the package, the tests and the tools (the folders mypy checks are in pyproject.toml)
lint: $(STAMP)
	$(BIN)/ruff check engine tests tools
	$(BIN)/mypy

# the long fuzz profile (docs/reliability.md): 10,000 random cases per target; figures in out/fuzz-report.json
fuzz: $(STAMP)
	mkdir -p out
	AERIE_FUZZ=1 AERIE_FUZZ_REPORT=out/fuzz-report.json $(BIN)/python -m pytest -q -p no:cacheprovider tests/fuzz/test_fuzz.py tests/fuzz/test_fuzz_import.py tests/fuzz/test_fuzz_gm_line.py

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
