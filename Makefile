# The two commands of the README: `make run` and `make test`.
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck bench clean

$(PY):
	$(PYTHON) -m venv $(VENV) || python3 -m venv $(VENV)

$(STAMP): $(PY) requirements.txt requirements-dev.txt
	$(PY) -m pip install --disable-pip-version-check -q -r requirements-dev.txt
	touch $(STAMP)

test: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m mypy --strict scoring
	$(PY) -m pytest -q

lint: $(STAMP)
	$(PY) -m ruff check .

typecheck: $(STAMP)
	$(PY) -m mypy --strict scoring

bench: $(STAMP)
	$(PY) bench/standings.py

clean:
	rm -rf $(VENV)
