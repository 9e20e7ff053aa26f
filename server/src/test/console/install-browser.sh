#!/usr/bin/env bash
# Installs what ConsoleIT drives, where this machine allows it: Debian's chromium and chromium-driver
# when apt-get can run as root. Best effort: without them ConsoleIT skips, saying why.
set -uo pipefail
if { ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; } \
    && command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null) \
    || echo "console: chromium and chromium-driver not installed"
fi
exit 0
