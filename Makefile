# fleetref: `make demo` runs the simulated board with the live mirror; `make test` runs every test.
# Both create the project's own virtual environment (.venv) and install what they need first.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
DEV_STAMP := $(VENV)/.dev-stamp

NODE_STAMP := node_modules/.installed-stamp

.PHONY: demo test lint setup clean bench bench-mqtt browser mqtt-broker screenshots report-picture \
	firmware firmware-toolchain micropython-unix

setup: $(DEV_STAMP) $(NODE_STAMP) browser mqtt-broker firmware micropython-unix

# real MicroPython (WebAssembly port) and rp2040js (the emulated Pico, emu/) for the tests,
# pinned by package-lock.json
$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $(NODE_STAMP)

# what the demo and the fleetref command need (pyproject.toml's dependencies). The editable
# install of a package mapped from firmware/referee makes setuptools print a "same name as
# your package" advice banner; it does not apply here (the tests put the checkout first on
# sys.path on purpose), so that one warning class is silenced for pip's build step.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	PYTHONWARNINGS="ignore::UserWarning" $(PY) -m pip install -q -e .
	touch $(STAMP)

# the test tools on top (pyproject.toml's [dev] extra)
$(DEV_STAMP): $(STAMP) pyproject.toml
	PYTHONWARNINGS="ignore::UserWarning" $(PY) -m pip install -q -e '.[dev]'
	# firmware/pyrightconfig.json finds the MicroPython rp2 stubs through this link
	ln -sfn "$$($(PY) -c "import sysconfig; print(sysconfig.get_paths()['purelib'])")" $(VENV)/site-packages
	touch $(DEV_STAMP)

# headless Chromium for the web view's tests (tests/test_web_*.py): Debian's chromium and
# chromium-driver, installed when missing and this is root with apt-get; else one line says so
# and those tests skip (FLEETREF_REQUIRE_BROWSER=1, set by .ci/run, makes that a failure)
browser:
	@if command -v chromium >/dev/null && command -v chromedriver >/dev/null; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			chromium chromium-driver >/dev/null \
		|| echo "browser: apt-get could not install chromium chromium-driver: the web view's browser tests will skip"; \
	else echo "browser: no chromium/chromedriver and not root with apt-get: the web view's browser tests will skip (install Debian's chromium and chromium-driver)"; fi

# Mosquitto for the MQTT tests (tests/test_mqtt_*.py: each starts its own broker on a free
# 127.0.0.1 port): Debian's mosquitto, installed when missing and this is root with apt-get;
# else one line says so and those tests skip (FLEETREF_REQUIRE_MQTT=1, set by .ci/run, makes
# that a failure)
mqtt-broker:
	@if command -v mosquitto >/dev/null || [ -x /usr/sbin/mosquitto ]; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			mosquitto >/dev/null \
		|| echo "mqtt-broker: apt-get could not install mosquitto: the MQTT tests will skip"; \
	else echo "mqtt-broker: no mosquitto and not root with apt-get: the MQTT tests will skip (install Debian's mosquitto)"; fi

# the ARM toolchain for fleetref's MicroPython image (docs/build.md): Debian's packages,
# installed when missing and this is root with apt-get; else one line says so and the tests
# that need the image skip (FLEETREF_REQUIRE_FIRMWARE=1, set by .ci/run, makes that a failure)
FIRMWARE_DEBS := gcc-arm-none-eabi libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib cmake build-essential
firmware-toolchain:
	@if command -v arm-none-eabi-gcc >/dev/null && command -v cmake >/dev/null \
		&& [ -d /usr/lib/arm-none-eabi/newlib ]; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			$(FIRMWARE_DEBS) >/dev/null \
		|| echo "firmware-toolchain: apt-get could not install $(FIRMWARE_DEBS): the tests that need fleetref's image will skip"; \
	else echo "firmware-toolchain: no ARM toolchain and not root with apt-get: the tests that need fleetref's image will skip (install Debian's $(FIRMWARE_DEBS))"; fi

# fleetref's MicroPython v1.28.0 images for the Pico and the Pico W, the firmware frozen in,
# from the pinned kit in ../shared/mpy-build (cached in ~/.cache/fleetref, keyed by the kit
# and every frozen file): prints each UF2's path, size and sha256
firmware: $(STAMP) firmware-toolchain
	$(PY) -m host_tools.board.firmware_build --skip-missing --board all

# MicroPython's unix port from the same kit (host_tools/board/unix_build.py): the Pico W's
# network modules run on it in the tests; needs Debian's build-essential pkg-config
# libffi-dev, installed when missing and this is root with apt-get (else those tests skip;
# FLEETREF_REQUIRE_FIRMWARE=1 makes that a failure)
UNIX_DEBS := build-essential pkg-config libffi-dev
micropython-unix: $(STAMP)
	@if command -v cc >/dev/null && command -v pkg-config >/dev/null \
		&& pkg-config --exists libffi; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			$(UNIX_DEBS) >/dev/null \
		|| echo "micropython-unix: apt-get could not install $(UNIX_DEBS)"; fi
	$(PY) -m host_tools.board.unix_build --skip-missing

# the web view's pictures in docs/ (web-page.png, web-overlay.png, dashboard.png), taken by headless
# Chromium
screenshots: $(DEV_STAMP) browser mqtt-broker
	$(PY) -m devtools.webshots --out docs
	$(PY) -m devtools.dashshot --out docs

# README's picture of the battle report (docs/report-plot.png): the Escape from Hoth script
# played on the headless simulator, drawn by fleetref report's own code
report-picture: $(STAMP)
	$(PY) -m devtools.reportpicture --out docs/report-plot.png

demo: $(STAMP)
	$(VENV)/bin/fleetref demo

# two workers: the emulated-Pico tests (tests/test_emu_*.py) each keep one core busy
test: lint $(DEV_STAMP) $(NODE_STAMP) browser mqtt-broker firmware micropython-unix
	$(PY) -m pytest -q -n 2 tests

# ruff with micropython-lib's rule set (pyproject.toml) and pyright (the one install, from
# package.json) over the firmware against the rp2 stubs and over host_tools (CPython, the venv)
lint: $(DEV_STAMP) $(NODE_STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	node_modules/.bin/pyright -p firmware/pyrightconfig.json
	node_modules/.bin/pyright -p host_tools/pyrightconfig.json

# benchmarks: writes docs/performance.md and docs/reliability.md (figures are never typed in
# by hand)
bench: $(DEV_STAMP) $(NODE_STAMP) mqtt-broker firmware
	$(PY) bench/run.py
	$(PY) bench/reliability.py

# the MQTT rows of docs/performance.md alone (bench/mqtt.py; the other rows are kept)
bench-mqtt: $(DEV_STAMP) mqtt-broker
	$(PY) bench/mqtt.py

clean:
	rm -rf $(VENV) build *.egg-info node_modules
