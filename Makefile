# Two commands do all the set-up on a fresh clone: `make demo` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test fuzz venv bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $(STAMP)

venv: $(STAMP)

demo: $(STAMP)
	$(BIN)/aerie demo

test: $(STAMP)
	$(BIN)/python -m pytest -q

# the long fuzz profile (docs/reliability.md): 10,000 random cases per target; figures in out/fuzz-report.json
fuzz: $(STAMP)
	mkdir -p out
	AERIE_FUZZ=1 AERIE_FUZZ_REPORT=out/fuzz-report.json $(BIN)/python -m pytest -q -p no:cacheprovider tests/test_fuzz.py

bench: $(STAMP)
	$(BIN)/aerie bench los
	$(BIN)/aerie bench rules
	$(BIN)/aerie bench render

clean:
	rm -rf $(VENV) out
