#!/usr/bin/env bash
# Installs what the SDK sample scenarios need, where this machine allows it: Debian's python3-azure
# (azure-data-tables 12.4.2) when apt-get can run as root, and the JavaScript SDK from npm when
# node and npm are present. Best effort: what cannot be installed makes SdkSamplesIT skip that SDK.
set -uo pipefail
cd "$(dirname "$0")"
if ! /usr/bin/python3 -c 'import azure.data.tables' 2>/dev/null && command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-azure >/dev/null) \
    || echo "sdk-samples: python3-azure not installed"
fi
if command -v npm >/dev/null && [ ! -d js/node_modules/@azure/data-tables ]; then
  (cd js && npm install --no-audit --no-fund --no-package-lock --loglevel=error) || echo "sdk-samples: npm install failed"
fi
exit 0
