# Two commands a newcomer needs: `make demo` and `make test`. Both build their own venv, and
# `pip install` compiles the native core (native/*.cpp, docs/native.md) with the system's g++.
PYTHON ?= python3
VENV   ?= .venv
PIP     = $(VENV)/bin/pip
PY      = $(VENV)/bin/python
STAMP   = $(VENV)/.installed
# The build tools `pip install --no-build-isolation` needs in the venv (also in the dev extra).
BUILD_TOOLS = "scikit-build-core>=0.11" "nanobind>=2.0"
# A CMake build folder per venv, so rebuilding the wheel recompiles only what changed.
WHEEL_BUILD = build/wheel-$(notdir $(VENV))
# mypy cannot follow scikit-build-core's editable import hook: it reads this link tree instead
# (pyproject's mypy_path). Folder links, so new modules show up without a refresh.
TYPECHECK_TREE = build/typecheck/wargym
MAPPED = rules envs agents configs native

.PHONY: demo test lint typecheck dev-refresh typecheck-tree clean sanitize

EXTRAS ?= dev,train,export,serve

$(STAMP): pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	$(PIP) install -q -c constraints.txt ".[$(EXTRAS)]"
	touch $(STAMP)

demo: $(STAMP)
	$(PY) -m wargym.cli demo

test: $(STAMP)
	$(PIP) install -q -c constraints.txt --no-deps --force-reinstall --no-build-isolation \
		-Cbuild-dir=$(WHEEL_BUILD) .
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy -p wargym
	$(PY) -m pytest -q -n 2 --doctest-glob=README.md README.md tests
	$(PY) -m pytest -q --doctest-modules --pyargs wargym.rules wargym.native

lint: $(STAMP)
	$(VENV)/bin/ruff check .

typecheck: $(STAMP) typecheck-tree
	$(VENV)/bin/mypy -p wargym

# Developers: editable install (scikit-build-core's redirect: new modules in existing folders
# are seen at once). Re-run after editing C++ (incremental rebuild in build/editable, seconds)
# or after adding a package folder.
dev-refresh:
	flock /tmp/wargym-pip.lock sh -c '$(PIP) install -q -c constraints.txt $(BUILD_TOOLS) && \
		$(PIP) install -q -c constraints.txt --no-deps --no-build-isolation \
		-Cbuild-dir=build/editable -e .'
	$(MAKE) --no-print-directory typecheck-tree

# The sanitizer and fuzzing build (docs/native.md, "Sanitizers and fuzzing"): the core compiled
# with ASan + UBSan and g++ edge coverage (-DWARGYM_FUZZ=ON), in a venv of its own. It runs the
# native tests (the lockstep harness on 200 short games), then the coverage-guided fuzzer for
# FUZZ_SECONDS per target. .ci/run calls it.
SAN_VENV ?= .venv-asan
FUZZ_SECONDS ?= 60
SAN_WHEEL = build/asan-wheel
SAN_ENV = ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	LD_PRELOAD="$$(g++ -print-file-name=libasan.so) $$(g++ -print-file-name=libubsan.so)"

sanitize:
	test -x $(SAN_VENV)/bin/python || $(PYTHON) -m venv $(SAN_VENV)
	$(SAN_VENV)/bin/pip install -q -c constraints.txt $(BUILD_TOOLS) pytest pytest-xdist hypothesis
	rm -rf $(SAN_WHEEL)
	$(SAN_VENV)/bin/pip wheel -q --no-deps --no-build-isolation -Ccmake.build-type=RelWithDebInfo \
		-Ccmake.define.WARGYM_SANITIZE=ON -Ccmake.define.WARGYM_FUZZ=ON -Cbuild-dir=build/asan \
		-w $(SAN_WHEEL) .
	$(SAN_VENV)/bin/pip install -q -c constraints.txt $(SAN_WHEEL)/wargym-*.whl
	$(SAN_VENV)/bin/pip install -q --no-deps --force-reinstall $(SAN_WHEEL)/wargym-*.whl
	$(SAN_ENV) WARGYM_LOCKSTEP_GAMES=200 $(SAN_VENV)/bin/python -m pytest -q -n 2 -p no:cacheprovider \
		tests/native
	$(SAN_ENV) $(SAN_VENV)/bin/python tests/native/fuzz_native.py --seconds $(FUZZ_SECONDS)

typecheck-tree:
	rm -rf $(TYPECHECK_TREE) && mkdir -p $(TYPECHECK_TREE)
	for f in src/wargym/*; do ln -s "$(CURDIR)/$$f" $(TYPECHECK_TREE)/; done
	for d in $(MAPPED); do ln -s "$(CURDIR)/$$d" $(TYPECHECK_TREE)/$$d; done

clean:
	rm -rf $(VENV) build dist *.egg-info
