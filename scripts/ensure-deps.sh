#!/usr/bin/env bash
# Installs what a fresh Debian/Ubuntu machine lacks to build Bristle: libpng (the system PNG
# library, found through pkg-config), a C compiler and binutils (tests build C plugins with cc
# and read their symbols with nm), Debian's cargo and rustc when there is no cargo (the Rust
# bindings, example and scaffold need Rust 1.63 or later: Debian 12 ships 1.63; a rustup
# toolchain on PATH is used as it is), and for the browser tests of `bristle play` Chromium with its
# WebDriver (Debian's chromium and chromium-driver) and Selenium from PyPI (which must use
# Debian's chromedriver: it cannot download one here). Swift itself must already be installed.
set -euo pipefail

missing=()
pkg-config --exists libpng 2>/dev/null || missing+=(libpng-dev pkg-config)
command -v cc >/dev/null 2>&1 || missing+=(gcc)
command -v c++ >/dev/null 2>&1 || missing+=(g++)
command -v nm >/dev/null 2>&1 || missing+=(binutils)
command -v cargo >/dev/null 2>&1 || missing+=(cargo rustc)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)

if [ ${#missing[@]} -gt 0 ]; then
  echo "ensure-deps: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# Selenium 4.45: later releases need a certifi newer than the registry may have.
if ! python3 -c "import selenium, websocket" >/dev/null 2>&1; then
  echo "ensure-deps: installing selenium from PyPI" >&2
  python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore "selenium==4.45.0" >/dev/null
fi

command -v swift >/dev/null 2>&1 || { echo "ensure-deps: swift is not on PATH (Swift 6.x is required)" >&2; exit 1; }
