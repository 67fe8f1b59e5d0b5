#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The README's second command: install what is missing, build with warnings as errors, and run
# every test (unit, whole-network in virtual time, integration, wireshark, fuzz); then build
# again with AddressSanitizer + UndefinedBehaviorSanitizer (meson's b_sanitize, in
# build-san/) and run the suites listed in DFLY_SANITIZE_SUITES there (default: unit,
# integration, wireshark and sim-quick, the short whole-network tests (capture, faults); the
# whole sim suite takes about 13 minutes more under the sanitizers, so CI leaves it to
# DFLY_SANITIZE_SUITES="sim" ./scripts/test.sh), failing on any sanitizer report.
# DFLY_SANITIZE_SUITES="" skips that part. The last line is the summary "N passed, N failed, N skipped" over both runs.
set -uo pipefail
cd "$(dirname "$0")/.."
./scripts/deps.sh --tests || exit 1
./scripts/build.sh >/dev/null || { echo "build failed"; echo "0 passed, 1 failed"; exit 1; }
meson test -C build --print-errorlogs --num-processes 2 "$@"
rc=$?
logs=(build/meson-logs/testlog.json)

suites="${DFLY_SANITIZE_SUITES-unit integration wireshark sim-quick}"
if [ -n "$suites" ]; then
    echo "== the same tests under ASan + UBSan (build-san/): $suites"
    if [ ! -f build-san/build.ninja ]; then
        # warnings as errors here too: the instrumentation lets GCC see other paths
        meson setup build-san -Dwerror=true -Db_sanitize=address,undefined \
            -Db_lundef=false >/dev/null || { echo "sanitizer configure failed"; rc=1; }
    fi
    if ! ninja -C build-san >/dev/null; then
        echo "sanitizer build failed"
        rc=1
    else
        args=()
        for s in $suites; do args+=(--suite "$s"); done
        # any report aborts the process (and fails its test); leaks are reported at exit
        # DFLY_SANITIZED: the real-time tests widen their latency bounds (an instrumented
        # dfly-switch falls behind the clock at times); everything else is checked as usual
        DFLY_SANITIZED=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
            ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
            meson test -C build-san --print-errorlogs --num-processes 2 --timeout-multiplier 3 \
            "${args[@]}" || rc=1
        logs+=(build-san/meson-logs/testlog.json)
        if grep -q "ERROR: AddressSanitizer\|runtime error:\|ERROR: LeakSanitizer" \
            build-san/meson-logs/testlog.txt; then
            echo "FAILED: sanitizer reports in build-san/meson-logs/testlog.txt:"
            grep -m5 "ERROR: AddressSanitizer\|runtime error:\|ERROR: LeakSanitizer" \
                build-san/meson-logs/testlog.txt
            rc=1
        fi
    fi
fi

python3 - "${logs[@]}" <<'PY'
import json, sys
passed = failed = skipped = 0
for path in sys.argv[1:]:
    tag = " (ASan+UBSan)" if "build-san" in path else ""
    for line in open(path):
        r = json.loads(line)
        res = r.get("result")
        if res in ("OK", "EXPECTEDFAIL"):
            passed += 1
        elif res == "SKIP":
            skipped += 1
        else:
            failed += 1
            print("FAILED:", r.get("name") + tag, res)
print(f"{passed} passed, {failed} failed, {skipped} skipped")
PY
exit $rc
