# The two commands of the README: `make demo` and `make test`. Both install what is missing first.
SHELL := /bin/bash
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
APT_PKGS := mosquitto mosquitto-clients python3-venv
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: demo test bench soak lint deps system-deps clean

demo: deps
	$(VENV)/bin/gametable sim --bots 2

test: deps
	$(PY) -m ruff check controller sensors web_panel firmware tests benchmarks
	$(PY) -m pytest -q

bench: deps
	$(PY) -m benchmarks

soak: deps
	$(PY) -m benchmarks.soak

lint: deps
	$(PY) -m ruff check controller sensors web_panel firmware tests benchmarks

deps: system-deps $(STAMP) firmware/test_runner/node_modules

# Real MicroPython (WebAssembly port) for the firmware tests, pinned by package-lock.json.
firmware/test_runner/node_modules: firmware/test_runner/package-lock.json
	npm ci --prefix firmware/test_runner --no-audit --no-fund
	touch $@

# Debian / Raspberry Pi OS packages: Mosquitto (broker), Chromium (browser tests), venv.
system-deps:
	@missing=""; \
	for p in $(APT_PKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if ! command -v chromium >/dev/null && ! command -v chromium-browser >/dev/null; then missing="$$missing chromium"; fi; \
	if ! command -v node >/dev/null; then missing="$$missing nodejs npm"; fi; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	touch $(STAMP)

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
