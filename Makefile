# A thin front for meson and ninja.  `make` installs missing build
# dependencies (scripts/deps.sh), configures and builds build/kbench.
#   make run      build, then run the quick suite and print the tables
#   make test     build, then run every test; the last line is "N passed, N failed"
#   make install  PREFIX=/usr/local by default
# BUILD=dir picks the build directory; SANITIZE=1 builds with ASan and UBSan;
# WERROR=1 makes warnings errors (CI); PLATFORM=posix builds the BSDs' and
# macOS's platform file (src/plat/posix.c) on Linux too; TESTS='test_* cli'
# runs only the tests named (globs), not all.

BUILD    ?= build
PREFIX   ?= /usr/local
SANITIZE ?= 0
WERROR   ?= 0
PLATFORM ?= auto
TESTS    ?=

MESON_OPTS := --prefix=$(PREFIX) -Dsanitize=$(if $(filter 1,$(SANITIZE)),true,false) \
	      -Dwerror=$(if $(filter 1,$(WERROR)),true,false) -Dplatform=$(PLATFORM)

.PHONY: all deps run test install clean

all: deps
	@if [ -f $(BUILD)/build.ninja ]; then \
		meson configure $(BUILD) $(MESON_OPTS) >/dev/null; \
	else \
		meson setup $(BUILD) $(MESON_OPTS) >/dev/null || exit 1; \
	fi
	ninja -C $(BUILD)

deps:
	@sh scripts/deps.sh

run: all
	./$(BUILD)/kbench run --suite quick

test: all
	@sh tests/run.sh $(BUILD) '$(TESTS)'

install: all
	meson install -C $(BUILD) --destdir "$(DESTDIR)"

clean:
	rm -rf $(BUILD)
