# Thin wrapper over CMake: `make demo` and `make test` install what is missing (Debian 12,
# apt-get, no prompts), configure, build, then run. BUILD_DIR and CMAKE_FLAGS may be overridden.
BUILD_DIR ?= build
CMAKE_FLAGS ?=
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: all deps configure build demo test bench clean

all: build

deps:
	@sh scripts/install-deps.sh

configure: deps
	cmake -S . -B $(BUILD_DIR) $(CMAKE_FLAGS)

build: configure
	cmake --build $(BUILD_DIR) -j $(JOBS)

demo: build
	@sh scripts/demo.sh $(BUILD_DIR)

test: build
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)

bench: build
	@sh scripts/bench.sh $(BUILD_DIR)

clean:
	rm -rf $(BUILD_DIR)
