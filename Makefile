# Thin wrapper over CMake: `make demo` and `make test` install what is missing (Debian 12,
# apt-get, no prompts), configure, build, then run — the same as scripts/quickstart.sh, which
# needs no make. BUILD_DIR and CMAKE_FLAGS may be overridden.
# `make test-sanitize` builds everything with AddressSanitizer + UndefinedBehaviorSanitizer into
# ASAN_BUILD_DIR and runs the whole suite there (docs/hardening.md).
BUILD_DIR ?= build
ASAN_BUILD_DIR ?= build-asan
CMAKE_FLAGS ?=
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: all deps configure build demo test test-sanitize bench clean

all: build

deps:
	@sh scripts/install-deps.sh test

configure: deps
	cmake -S . -B $(BUILD_DIR) -DTC_BUILD_TESTS=ON -DTC_BUILD_BENCH=ON $(CMAKE_FLAGS)

build: configure
	cmake --build $(BUILD_DIR) -j $(JOBS)

demo:
	@BUILD_DIR=$(abspath $(BUILD_DIR)) CMAKE_FLAGS="$(CMAKE_FLAGS)" sh scripts/quickstart.sh demo

test: build
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)

test-sanitize: deps
	cmake -S . -B $(ASAN_BUILD_DIR) -DTC_SANITIZE=ON $(CMAKE_FLAGS)
	cmake --build $(ASAN_BUILD_DIR) -j $(JOBS)
	cd $(ASAN_BUILD_DIR) && UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --output-on-failure -j $(JOBS)

bench: build
	@sh scripts/bench.sh $(BUILD_DIR)

clean:
	rm -rf $(BUILD_DIR) $(ASAN_BUILD_DIR)
