#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The README's second command: install what is missing, build with warnings as errors, and run
# every test (unit, whole-network in virtual time, integration). The last line is the summary
# "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
./scripts/deps.sh || exit 1
./scripts/build.sh >/dev/null || { echo "build failed"; echo "0 passed, 1 failed"; exit 1; }
meson test -C build --print-errorlogs --num-processes 2 "$@"
rc=$?
python3 - build/meson-logs/testlog.json <<'PY'
import json, sys
passed = failed = skipped = 0
for line in open(sys.argv[1]):
    r = json.loads(line)
    res = r.get("result")
    if res in ("OK", "EXPECTEDFAIL"):
        passed += 1
    elif res == "SKIP":
        skipped += 1
    else:
        failed += 1
        print("FAILED:", r.get("name"), res)
print(f"{passed} passed, {failed} failed, {skipped} skipped")
PY
exit $rc
