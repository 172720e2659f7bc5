# Two commands do everything on a fresh Debian/Ubuntu machine with Python 3.11 and Node 20:
#   make serve   builds the site and serves it on http://127.0.0.1:8000/onnx-glossary/ (live reload;
#                the path is the one the site has on GitHub Pages)
#   make test    runs the whole test suite (unit, site builds, real Chromium, and the live
#                examples in Firefox ESR and WebKitGTK too)
# Both set up what they need first (a virtual environment, npm packages, the browsers) and are
# quick once that is done.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
export NO_MKDOCS_2_WARNING := 1
SERVE_ADDR ?= 127.0.0.1:8000

FAST := not browser and not wheel and not export

.PHONY: serve build test test-fast lint models bench setup setup-export setup-hosts setup-tf chromium \
	engines clean mediapipe-reference

serve: setup
	@echo "make serve: building the site, then serving it on http://$(SERVE_ADDR)/onnx-glossary/"
	@echo "  (the first build analyses every example model: a minute or two; later ones reuse .cache/)"
	@$(BIN)/mkdocs serve --dev-addr $(SERVE_ADDR)

build: setup
	$(BIN)/mkdocs build --strict

test: setup setup-export setup-tf setup-hosts chromium engines
	$(BIN)/pytest

# The quick loop: everything but the browser, the wheel and the model exports (under 3 min).
test-fast: setup setup-hosts
	$(BIN)/pytest -m "$(FAST)"

# The JavaScript too: tsc type-checks it (tsconfig.json), eslint lints it (eslint.config.mjs).
lint: setup
	$(BIN)/ruff check plugins tests scripts models
	$(BIN)/mypy
	node_modules/.bin/tsc -p tsconfig.json
	node_modules/.bin/eslint --max-warnings 0

# Re-export every example model with its parity check (needs the export extra: torch, sklearn;
# models/digits-keras runs in the TensorFlow environment $(TF_VENV)).
models: setup-export setup-tf
	$(BIN)/python scripts/export_models.py

# Each script prints its figures beside their targets and exits 1 when one misses; all three
# always run. bench_lighthouse.py runs the Lighthouse pinned in package.json on every page type.
bench: setup chromium
	$(BIN)/python scripts/bench_build.py; build=$$?; \
	$(BIN)/python scripts/bench_live.py; live=$$?; \
	$(BIN)/python scripts/bench_lighthouse.py; lighthouse=$$?; \
	exit $$(( build || live || lighthouse ))

setup: $(VENV)/.installed node_modules/.installed

# Recipes are not echoed (@): a newcomer reads what is being done and how long it takes, and a
# line that reads like a failure only when something failed.
$(VENV)/.installed: pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11) and "Python 3.11 is needed: run make PYTHON=python3.11")'
	@test -x $(BIN)/python || { echo "setup: creating the virtual environment $(VENV)"; \
	  $(PYTHON) -m venv $(VENV) || { rm -rf $(VENV); \
	  echo "Could not create $(VENV): on Debian/Ubuntu install python3-venv (apt-get install python3-venv)"; exit 1; }; }
	@echo "setup: installing the Python packages pinned in pyproject.toml into $(VENV): MkDocs,"
	@echo "  mkdocs-material, onnx, onnxruntime, numpy, pytest, playwright... About 2 minutes the"
	@echo "  first time, longer on a slow connection; pip works quietly meanwhile."
	@$(BIN)/python -m pip install --quiet --upgrade pip
	@$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $@
	@echo "setup: Python packages installed"

setup-export: $(VENV)/.installed-export

# torch is pinned ==2.13.0 in pyproject.toml: a looser pin pulls a multi-GB CUDA build.
$(VENV)/.installed-export: $(VENV)/.installed
	@echo "setup: installing the export extra into $(VENV) (torch 2.13.0 CPU, scikit-learn, skl2onnx):"
	@echo "  a few minutes the first time"
	@$(BIN)/python -m pip install --quiet -e '.[test,export]'
	@touch $@

# ProperDocs and Zensical, each in its own virtual environment so that their pins never meet.
HOSTS := .venv-hosts
setup-hosts: $(HOSTS)/properdocs/.installed $(HOSTS)/zensical/.installed

$(HOSTS)/%/.installed: pyproject.toml
	@echo "setup: installing $* into $(HOSTS)/$* (for the test that builds with every host): about a minute"
	@test -x $(HOSTS)/$*/bin/python || $(PYTHON) -m venv $(HOSTS)/$*
	@$(HOSTS)/$*/bin/python -m pip install --quiet --upgrade pip
	@$(HOSTS)/$*/bin/python -m pip install --quiet -e '.[$*]'
	@touch $@

# TensorFlow (tensorflow-cpu, tf2onnx) gets its own environment: its numpy/protobuf pins need
# not agree with torch's. Only models whose export.py says EXPORT_VENV = ".venv-tf" use it.
TF_VENV := .venv-tf
setup-tf: $(TF_VENV)/.installed-tf

$(TF_VENV)/.installed-tf: pyproject.toml
	@echo "setup: installing TensorFlow (tensorflow-cpu, tf2onnx) into $(TF_VENV): a few minutes the first time"
	@test -x $(TF_VENV)/bin/python || $(PYTHON) -m venv $(TF_VENV) || { rm -rf $(TF_VENV); \
	  echo "Could not create $(TF_VENV): on Debian/Ubuntu install python3-venv"; exit 1; }
	@$(TF_VENV)/bin/python -m pip install --quiet --upgrade pip
	@$(TF_VENV)/bin/python -m pip install --quiet -e '.[tf]'
	@touch $@

# MediaPipe's own answers on the sample photos (models/_photos/mediapipe_reference.json), which
# the export tests compare the MediaPipe models' re-exports with. mediapipe 0.10.14 needs
# numpy < 2, hence its own environment; run by hand and commit the result (make test never does).
MP_VENV := .venv-mediapipe
mediapipe-reference: $(MP_VENV)/.installed
	$(MP_VENV)/bin/python models/_photos/mediapipe_reference.py

$(MP_VENV)/.installed: models/_photos/requirements-mediapipe.txt
	test -x $(MP_VENV)/bin/python || $(PYTHON) -m venv $(MP_VENV)
	$(MP_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(MP_VENV)/bin/python -m pip install --quiet -r models/_photos/requirements-mediapipe.txt
	touch $@

node_modules/.installed: package.json package-lock.json
	@command -v npm >/dev/null 2>&1 || { echo "npm not found: install Node.js 20 with npm"; exit 1; }
	@echo "setup: installing the npm packages pinned in package-lock.json into node_modules:"
	@echo "  onnxruntime-web (the site's runtime), the JavaScript linters, the test tools. About a"
	@echo "  minute the first time, longer on a slow connection."
	@npm ci --no-audit --no-fund --loglevel=error
	@touch $@
	@echo "setup: npm packages installed"

# Debian's Chromium, driven by Python playwright (playwright's own browser download cannot
# work offline). Installing needs root, or sudo.
chromium:
	@command -v chromium >/dev/null 2>&1 || test -x /usr/bin/chromium || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium; }

# The other browser engines of the cross-engine tests (tests/test_engines.py), from Debian:
# Firefox ESR (driven by the npm package puppeteer-core), WebKitGTK's MiniBrowser with
# WebKitWebDriver under Xvfb, and WPE WebKit 2.38 (WPEWebDriver; its MiniBrowser is in
# libwpewebkit-1.1-0). Installing needs root, or sudo.
ENGINE_PACKAGES := firefox-esr webkit2gtk-driver xvfb wpewebkit-driver libwpewebkit-1.1-0
ENGINE_FILES := /usr/bin/firefox-esr /usr/bin/WebKitWebDriver /usr/bin/Xvfb /usr/bin/WPEWebDriver \
  /usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser /usr/lib/x86_64-linux-gnu/wpe-webkit-1.1/MiniBrowser
engines:
	@( for f in $(ENGINE_FILES); do test -x $$f || exit 1; done ) || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(ENGINE_PACKAGES); }

clean:
	rm -rf site .cache .pytest_cache
