# Installs Bristle: the CLI, the ABI header, pkg-config metadata, the reference brushes, the
# BristleKit package that `bristle new --lang swift` projects depend on and the Rust crates
# (bristle, bristle-sys) that `bristle new --lang rust` projects depend on.
#
#   make install [PREFIX=/usr/local] [DESTDIR=] [CONFIG=release|debug]
#   make uninstall [PREFIX=/usr/local] [DESTDIR=]
#
# BUILT=DIR installs what is already built in DIR (a `swift build` products folder) instead
# of building first; the tests use it.
#
# The installed executable and Swift plugins find the Swift runtime through the RUNPATH the
# toolchain wrote (e.g. /opt/swift/usr/lib/swift/linux), so they run with a clean environment
# on any machine that has the same Swift toolchain (or runtime) at the same path.

PREFIX ?= /usr/local
DESTDIR ?=
CONFIG ?= release
SWIFT ?= swift
BUILT ?=

ROOT := $(DESTDIR)$(PREFIX)
KIT := $(ROOT)/share/bristle/swift/BristleKit
RUST := $(ROOT)/share/bristle/rust
MANIFEST := $(ROOT)/share/bristle/install-manifest.txt
ABI_VERSION := $(shell sed -n 's/^\#define BRISTLE_VERSION_\(MAJOR\|MINOR\|PATCH\) ((uint32_t)\([0-9]*\)).*/\2/p' include/bristle/bristle.h | paste -sd.)

ifeq ($(BUILT),)
BUILD_STEP := build
BIN_PATH = $(shell $(SWIFT) build -c $(CONFIG) --show-bin-path)
else
BUILD_STEP :=
BIN_PATH = $(BUILT)
endif

# The manifest of the installed BristleKit package (its sources are copied beside it).
define KIT_MANIFEST
// swift-tools-version: 6.0
// BristleKit, installed by Bristle's `make install`: the Swift authoring kit for brush plugins.
import PackageDescription

let package = Package(
    name: "BristleKit",
    products: [.library(name: "BristleKit", targets: ["BristleKit"])],
    targets: [
        .target(name: "CBristle", path: "include", publicHeadersPath: "."),
        .target(name: "BristleKit", dependencies: ["CBristle"]),
    ]
)
endef
export KIT_MANIFEST

# The pkg-config file; PREFIX is written without DESTDIR.
define PC_FILE
prefix=$(PREFIX)
includedir=$${prefix}/include
libdir=$${prefix}/lib
plugindir=$${libdir}/bristle/plugins

Name: bristle
Description: Bristle brush plugin ABI (header only; plugins export bristle_entry_v1)
Version: $(ABI_VERSION)
Cflags: -I$${includedir}
endef
export PC_FILE

.PHONY: build install uninstall sheets

build:
	$(SWIFT) build -c $(CONFIG)

install: $(BUILD_STEP)
	@test -x "$(BIN_PATH)/bristle" || { echo "make: no bristle executable in $(BIN_PATH); build first" >&2; exit 1; }
	install -d "$(ROOT)/bin" "$(ROOT)/include/bristle" "$(ROOT)/lib/pkgconfig" "$(ROOT)/lib/bristle/plugins" \
	    "$(KIT)/include/bristle" "$(KIT)/Sources"
	install -m 755 "$(BIN_PATH)/bristle" "$(ROOT)/bin/bristle"
	install -m 644 include/bristle/bristle.h "$(ROOT)/include/bristle/bristle.h"
	install -m 644 include/bristle/bristle_plugin.h "$(ROOT)/include/bristle/bristle_plugin.h"
	printf '%s\n' "$$PC_FILE" > "$(ROOT)/lib/pkgconfig/bristle.pc"
	for so in "$(BIN_PATH)"/libBristle*.so; do \
	    case "$$so" in *Example*) continue ;; esac; \
	    install -m 755 "$$so" "$(ROOT)/lib/bristle/plugins/"; done
	install -m 644 include/bristle/bristle.h "$(KIT)/include/bristle/bristle.h"
	install -m 644 include/module.modulemap "$(KIT)/include/module.modulemap"
	rm -rf "$(KIT)/Sources/BristleKit"
	cp -R Sources/BristleKit "$(KIT)/Sources/BristleKit"
	printf '%s\n' "$$KIT_MANIFEST" > "$(KIT)/Package.swift"
	rm -rf "$(RUST)"
	for crate in bristle-sys bristle; do \
	    install -d "$(RUST)/$$crate"; \
	    install -m 644 bindings/rust/$$crate/Cargo.toml "$(RUST)/$$crate/Cargo.toml"; \
	    cp -R bindings/rust/$$crate/src "$(RUST)/$$crate/src"; done
	cd "$(ROOT)" && { echo bin/bristle; echo include/bristle/bristle.h; echo include/bristle/bristle_plugin.h; \
	    echo lib/pkgconfig/bristle.pc; \
	    ls lib/bristle/plugins/libBristle*.so; } > "$(MANIFEST)"
	@echo "Installed Bristle into $(ROOT)"

uninstall:
	@if [ -f "$(MANIFEST)" ]; then cd "$(ROOT)" && xargs rm -f < "$(MANIFEST)"; fi
	rm -f "$(MANIFEST)"
	rm -rf "$(KIT)" "$(RUST)"
	-rmdir "$(ROOT)/share/bristle/swift" "$(ROOT)/share/bristle" "$(ROOT)/lib/bristle/plugins" "$(ROOT)/lib/bristle" \
	    "$(ROOT)/include/bristle" 2>/dev/null
	@echo "Uninstalled Bristle from $(ROOT)"

# The standard sheet (`bristle sheet`) of every reference brush but the eraser (blank on an
# empty canvas), written over the golden images the tests compare pixel by pixel and
# docs/brushes.md shows. Look at each changed PNG before committing it.
SHEET_BRUSHES := pencil force-hue pencil-shading line dashed-line rectangle ellipse spray marker
sheets:
	$(SWIFT) build
	for b in $(SHEET_BRUSHES); do \
		"$$($(SWIFT) build --show-bin-path)/bristle" sheet org.bristle.$$b -o Tests/Golden/sheets/org.bristle.$$b.png || exit 1; \
	done
