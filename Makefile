# The two commands of the README: `make demo` and `make test`. Both install what is missing first
# (Debian packages through apt, Python packages into .venv), so they work on a fresh Debian 12 /
# Raspberry Pi OS (64-bit) machine.
SHELL := /bin/bash
VENV ?= .venv
PY := $(VENV)/bin/python
RUN_STAMP := $(VENV)/.installed-run
TEST_STAMP := $(VENV)/.installed-test
NODE_MODULES := firmware/test_runner/node_modules
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
LINTED := gametable_core sensors controller web_panel gametable firmware tests benchmarks

.PHONY: demo test bench soak lint run-deps test-deps apt clean stl mpy i18n platform

# You against a bot: two bots play slowly on the table view until a phone takes a seat.
# make demo PORT=8093: the panel on another port (8080 taken)
demo: run-deps
	$(VENV)/bin/gametable sim --bots 1 $(if $(PORT),--port $(PORT))

test: test-deps
	$(PY) -m ruff check $(LINTED)
	$(PY) -m mypy
	$(PY) -m pytest -q

bench: test-deps
	$(PY) -m benchmarks

soak: test-deps
	$(PY) -m benchmarks.soak

lint: test-deps
	$(PY) -m ruff check $(LINTED)
	$(PY) -m mypy  # gametable_core sensors controller web_panel gametable: [tool.mypy] in pyproject.toml

# The panel's catalogue (docs/i18n.md): extract every msgid into web_panel/locale/messages.pot and
# merge it into the Chinese .po (new strings arrive empty: tests/test_i18n_catalogue.py fails until
# they are translated). The .po is compiled when the panel starts, so there is no build step.
i18n: test-deps
	$(PY) -m gametable.i18n_catalogue

# The printed parts (hardware_docs/printable/*.scad) as STL files in build/stl/. Only this target
# needs Debian's openscad; the hole positions come from the table config (draw_drilling_jig.py).
SCAD := $(filter-out %/goal_points.scad,$(wildcard hardware_docs/printable/*.scad))
stl: run-deps
	@$(MAKE) --no-print-directory apt PKGS="openscad"
	$(PY) hardware_docs/draw_drilling_jig.py
	mkdir -p build/stl
	for f in $(SCAD); do openscad -o build/stl/$$(basename $$f .scad).stl $$f || exit 1; done

# The firmware as MicroPython bytecode for flashing (firmware/mpy/*.mpy, from the .py sources: a
# wake from deep sleep then compiles nothing; hardware_docs/firmware.md "Wake time"). The tests fail
# when a shipped .mpy no longer matches its source.
mpy: test-deps
	$(PY) -m firmware.build_mpy

# What the table needs to run: Mosquitto, a Python venv, and fonts for the panel's Chinese mode
# titles and emoji on the Pi's own Chromium (a light CJK font, ~5 MB, and the colour emoji).
run-deps: platform
	@$(MAKE) --no-print-directory apt PKGS="mosquitto mosquitto-clients fonts-wqy-microhei fonts-noto-color-emoji"
	@$(MAKE) --no-print-directory $(RUN_STAMP)

# What the tests need on top: Chromium (panel tests, via Playwright), Node (real MicroPython),
# PostgreSQL (the venue's store tests run on it as well as on SQLite; ~55 MB, started by the tests).
test-deps: run-deps
	@$(MAKE) --no-print-directory apt PKGS="chromium nodejs npm postgresql"
	@$(MAKE) --no-print-directory $(TEST_STAMP) $(NODE_MODULES)

# 64-bit only (gametable/startup_checks.py says the same at `gametable run`): pymunk 7 has no
# 32-bit ARM wheel, so 32-bit Raspberry Pi OS would try to build it and fail half-way.
platform:
	@case "$$(uname -m)" in \
	  aarch64|arm64|x86_64|amd64) ;; \
	  *) echo "this is a $$(uname -m) system: gametable needs 64-bit Raspberry Pi OS (Bookworm) on a Pi 3, 4, 5 or Zero 2 W, or a 64-bit PC (see hardware_docs/pi_setup.md)"; exit 1;; \
	esac

# apt-get install only the packages of PKGS that are missing (chromium may be chromium-browser).
apt:
	@missing=""; \
	for p in $(PKGS); do \
	  case $$p in \
	    chromium) command -v chromium >/dev/null || command -v chromium-browser >/dev/null || missing="$$missing $$p";; \
	    nodejs) command -v node >/dev/null || missing="$$missing $$p";; \
	    npm) command -v npm >/dev/null || missing="$$missing $$p";; \
	    *) dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p";; \
	  esac; \
	done; \
	python3 -c "import venv, ensurepip" 2>/dev/null || missing="$$missing python3-venv"; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

$(PY):
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip

$(RUN_STAMP): pyproject.toml constraints.txt | $(PY)
	$(PY) -m pip install -q -c constraints.txt -e '.[camera]'
	touch $@

$(TEST_STAMP): pyproject.toml constraints.txt $(RUN_STAMP)
	$(PY) -m pip install -q -c constraints.txt -e '.[test,camera,venue,venue-pg]'
	touch $@

# Real MicroPython (WebAssembly port) for the firmware tests, pinned by package-lock.json.
$(NODE_MODULES): firmware/test_runner/package-lock.json
	npm ci --prefix firmware/test_runner --no-audit --no-fund
	touch $@

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache $(NODE_MODULES)

.PHONY: renders
# Pictures of the printed parts for the docs (hardware_docs/printable/pictures/, committed). Only
# this target needs a virtual X display (xvfb) for openscad's OpenGL renderer; `section` cuts a
# part open where it has that parameter (the goal sensor plug's light paths).
renders:
	@$(MAKE) --no-print-directory apt PKGS="openscad xvfb"
	mkdir -p hardware_docs/printable/pictures
	for f in $(SCAD); do xvfb-run -a openscad --render -D section=true --imgsize=800,600 --viewall --autocenter \
	  --colorscheme=Tomorrow -o hardware_docs/printable/pictures/$$(basename $$f .scad).png $$f || exit 1; done
