# Two commands a newcomer needs: `make demo` and `make test`. Both build their own venv.
PYTHON ?= python3
VENV   ?= .venv
PIP     = $(VENV)/bin/pip
PY      = $(VENV)/bin/python
STAMP   = $(VENV)/.installed

.PHONY: demo test lint typecheck dev-refresh clean

EXTRAS ?= dev,train,export,serve

$(STAMP): pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	$(PIP) install -q -c constraints.txt ".[$(EXTRAS)]"
	touch $(STAMP)

demo: $(STAMP)
	$(PY) -m wargym.cli demo

test: $(STAMP)
	$(PIP) install -q -c constraints.txt --no-deps --force-reinstall .
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy -p wargym
	$(PY) -m pytest -q -n 2 --doctest-glob=README.md README.md tests
	$(PY) -m pytest -q --doctest-modules --pyargs wargym.rules

# Developers: strict editable install (re-run after adding a module).
dev-refresh:
	flock /tmp/wargym-pip.lock $(PIP) install -q -c constraints.txt --no-deps \
		--config-settings editable_mode=strict -e .

clean:
	rm -rf $(VENV) build dist *.egg-info
