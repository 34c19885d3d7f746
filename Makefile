# The two commands of the README: `make run` and `make test` (docs/command-line.md).
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
# Two stamps, one per requirements file: `make run` installs the runtime alone, `make test` the tools as well (a
# `make test` after a `make run` adds them).
RUNTIME := $(VENV)/.installed-runtime
STAMP := $(VENV)/.installed
UV := $(VENV)/bin/uv
UV_VERSION := 0.13.8
CHECKERS := node_modules/.installed
HOST ?= 127.0.0.1:8000

.PHONY: run test lint typecheck bench messages clean chromium

# The venv without pip, and uv (pinned) put in by the system's pip: seconds, where making the venv's own pip took
# twenty under load; where the system has no pip, the venv's own (ensurepip) installs uv. uv then seeds the venv's pip.
$(PY):
	$(PYTHON) -m venv --without-pip $(VENV) || python3 -m venv --without-pip $(VENV)

# uv installs the requirements: wheels fetched in parallel, about 5 s for the runtime where pip took a minute and a
# half (bench/README.md "make run").
$(UV): | $(PY)
	$(PYTHON) -m pip --python $(PY) install --disable-pip-version-check -q uv==$(UV_VERSION) || \
	  { $(PY) -m ensurepip >/dev/null && $(PY) -m pip install --disable-pip-version-check -q uv==$(UV_VERSION); }
	$(UV) pip install -q --python $(PY) pip

$(RUNTIME): requirements.txt | $(UV)
	sh scripts/system-packages.sh run
	$(UV) pip install -q --python $(PY) -r requirements.txt
	touch $(RUNTIME)

# compileall: the venv's bytecode written once here (4 s). uv leaves it to the first import, and a machine with
# PYTHONDONTWRITEBYTECODE set writes none: every process of the suite (the two workers, and gunicorn, manage.py, the
# PDF child the tests start) compiled Django and the rest again, about 1 s of CPU each (bench/README.md "The test
# suite"). uv's own --compile-bytecode compiles only the packages it installs.
$(STAMP): $(RUNTIME) requirements-dev.txt
	sh scripts/system-packages.sh test
	$(UV) pip install -q --python $(PY) -r requirements-dev.txt
	$(PY) -m compileall -q -j 0 $(VENV)/lib
	touch $(STAMP)

# Serve the app on an embedded SQLite database with a demo tournament loaded; the background workers (documents,
# seating, the stream overlay, notifications: tournaments/background.py) run inside the development server
# (TASKS_IN_PROCESS).
# Bytecode written (PYTHONDONTWRITEBYTECODE off): the server and its reloader read what migrate compiled, instead of
# compiling Django and the apps again in each of the four processes.
run: export PYTHONDONTWRITEBYTECODE :=
run: $(RUNTIME)
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_demo
	TASKS_IN_PROCESS=1 $(PY) manage.py runserver $(HOST)

# Lint, type-check (scoring and every app, pyproject.toml), run every test in a process per core (pytest-xdist;
# PostgreSQL when DATABASE_URL points at one). The layers of the apps (import-linter) are checked by
# tests/test_layers.py. TEST_WORKERS: how many test processes (auto: one per core); work stealing keeps both
# busy to the end, whatever the long tests' order (bench/README.md "The test suite").
TEST_WORKERS ?= auto
# compileall: the processes the tests start (gunicorn, manage.py, the PDF child) read the project's bytecode instead of
# compiling it each time (a machine with PYTHONDONTWRITEBYTECODE set writes none by itself): about 0.2 s a process.
# Bytecode written (PYTHONDONTWRITEBYTECODE off, as for `make run`): pytest keeps its rewritten test modules instead
# of parsing and compiling all of them again in each worker.
test: export PYTHONDONTWRITEBYTECODE :=
test: $(STAMP) chromium $(CHECKERS)
	$(PY) -m ruff check .
	$(PY) -m mypy
	$(PY) -m compileall -q -j 0 -x '/\.venv/' .
	$(PY) -m pytest -q -rs -n $(TEST_WORKERS) --dist worksteal

# The checkers tests/e2e/test_checkers.py runs over the pages: axe-core and the Nu validator (vnu.jar, run by Debian's
# headless Java from scripts/system-packages.sh), at the exact versions of package-lock.json from the npm registry,
# into node_modules/. --ignore-scripts: vnu-jar's install script would download a Java of its own.
$(CHECKERS): package.json package-lock.json
	npm ci --no-audit --no-fund --ignore-scripts
	touch $(CHECKERS)

# The browsers of the end-to-end tests (tests/e2e): Debian's Chromium, installed once, never downloaded by Playwright.
# The journeys run in its old headless shell (the one Playwright itself runs headless): a fifth less CPU than the
# whole browser in its new headless mode, which the phone benchmarks (bench/phone.py) keep.
chromium:
	@{ command -v chromium && command -v chromium-headless-shell; } >/dev/null || \
	  (apt-get update -q && apt-get install -y -q chromium chromium-headless-shell)

lint: $(STAMP)
	$(PY) -m ruff check .
	$(VENV)/bin/lint-imports --no-cache

# mypy --strict on scoring and on every app (the files and the Django/DRF plugins: pyproject.toml [tool.mypy]).
typecheck: $(STAMP)
	$(PY) -m mypy

bench: $(RUNTIME)
	$(PY) bench/standings.py

# Re-extract and compile the translations (needs GNU gettext); the .mo files are committed.
messages: $(RUNTIME)
	$(PY) manage.py makemessages -l ru --no-location --no-obsolete -i '.venv/*' -i 'scoring/*' -i 'tests/*' -i 'bench/*'
	$(PY) manage.py compilemessages -l ru -i .venv

clean:
	rm -rf $(VENV) node_modules
