#!/usr/bin/env bash
# Runs the Python and JavaScript SDK sample scenarios against a running Tablestream server.
#   sdk-samples/run.sh [python|js]...        (both when none is named)
# The server: TABLES_CONNECTION_STRING, or the default local one (./run-server.sh on port 10002).
# Needs: python3 with azure-data-tables (Debian: apt-get install python3-azure) for python;
#        node and npm (installs @azure/data-tables 13.3.2 into sdk-samples/js/node_modules) for js.
set -uo pipefail
cd "$(dirname "$0")"
: "${TABLES_CONNECTION_STRING:=DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;TableEndpoint=http://127.0.0.1:10002/devstoreaccount1;}"
export TABLES_CONNECTION_STRING
sdks=("$@")
[ ${#sdks[@]} -eq 0 ] && sdks=(python js)
status=0
for sdk in "${sdks[@]}"; do
  case "$sdk" in
    python)
      python=""
      for candidate in python3 /usr/bin/python3; do
        if command -v "$candidate" >/dev/null && "$candidate" -c 'import azure.data.tables' 2>/dev/null; then
          python="$candidate"; break
        fi
      done
      if [ -z "$python" ]; then
        echo "python: no python3 with azure-data-tables (Debian: apt-get install python3-azure)"; status=1; continue
      fi
      "$python" python/run_samples.py || status=1 ;;
    js)
      if ! command -v node >/dev/null; then echo "js: node is not installed"; status=1; continue; fi
      if [ ! -d js/node_modules/@azure/data-tables ]; then
        (cd js && npm install --no-audit --no-fund --no-package-lock --loglevel=error) || { echo "js: npm install failed"; status=1; continue; }
      fi
      (cd js && node run_samples.mjs) || status=1 ;;
    *) echo "unknown SDK '$sdk': python or js"; status=2 ;;
  esac
done
exit $status
