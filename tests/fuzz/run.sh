#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Build the libFuzzer harnesses of tests/fuzz/ with clang (-fsanitize=fuzzer,address,undefined)
# and run each for SECONDS (default 12) from its seed corpus tests/fuzz/corpus/NAME/, after
# replaying every input of tests/fuzz/regress/NAME/ (crashes found before, kept as regression
# tests). A crash, a sanitizer report or a failed check exits 1 and names the input, saved in
# OUT (default a temporary directory, kept on failure). Longer runs (tests/fuzz/README.md):
#   tests/fuzz/run.sh SOURCE_DIR 600 [NAME...]
set -u
src="${1:?usage: run.sh SOURCE_DIR [SECONDS] [NAME...]}"
secs="${2:-12}"
[ $# -ge 2 ] && shift 2 || shift $#
names="${*:-wire_data wire_ctrl host config}"
command -v clang >/dev/null || { echo "SKIP: clang not found"; exit 77; }
out=$(mktemp -d /tmp/dfly-fuzz-XXXXXX)
keep=0
cleanup() { [ "$keep" = 1 ] && echo "fuzz: inputs and logs kept in $out" || rm -rf "$out"; }
trap cleanup EXIT
trap 'exit 1' INT TERM

cflags="-g -O1 -std=gnu11 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
    -I$src/include -I$src/asic-emu -I$src/dataplane -I$src/config -I$src/control
    -DDFLY_SOURCE_DIR=\"$src\""
srcs() {
    case "$1" in
    wire_data) echo "asic-emu/wire.c asic-emu/topo.c" ;;
    wire_ctrl) echo "asic-emu/wire.c asic-emu/topo.c" ;;
    host) echo "asic-emu/wire.c asic-emu/topo.c dataplane/host.c" ;;
    config) echo "config/netcfg.c dataplane/deploy.c dataplane/host.c asic-emu/topo.c
        asic-emu/wire.c asic-emu/regs.c asic-emu/log.c control/fw.c control/pb.c control/ectn.c
        control/failover.c control/lia.c" ;;
    esac
}
libs() { [ "$1" = config ] && echo "-lconfig -lm" || echo ""; }

# libconfig's own leak on some syntax errors (lsan.supp says which); nothing of ours
export LSAN_OPTIONS="suppressions=$src/tests/fuzz/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
status=0
for n in $names; do
    files=""
    for f in $(srcs "$n"); do files="$files $src/$f"; done
    # shellcheck disable=SC2086
    if ! clang $cflags -o "$out/fuzz_$n" "$src/tests/fuzz/fuzz_$n.c" $files $(libs "$n") \
        2>"$out/$n.build"; then
        cat "$out/$n.build"
        echo "FAIL: fuzz_$n does not build"
        keep=1
        status=1
        continue
    fi
    # regressions: every input once
    if [ -d "$src/tests/fuzz/regress/$n" ] && [ -n "$(ls -A "$src/tests/fuzz/regress/$n")" ]; then
        if ! "$out/fuzz_$n" "$src/tests/fuzz/regress/$n"/* >"$out/$n.regress" 2>&1; then
            tail -20 "$out/$n.regress"
            echo "FAIL: fuzz_$n: a regression input fails again"
            keep=1
            status=1
            continue
        fi
    fi
    mkdir -p "$out/corpus_$n"
    if ! "$out/fuzz_$n" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="$out/$n-" -print_final_stats=1 \
        "$out/corpus_$n" "$src/tests/fuzz/corpus/$n" >"$out/$n.log" 2>&1; then
        tail -30 "$out/$n.log"
        echo "FAIL: fuzz_$n: see the input saved in $out (copy it to tests/fuzz/regress/$n/)"
        keep=1
        status=1
        continue
    fi
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/$n.log")
    cov=$(grep -o 'cov: [0-9]*' "$out/$n.log" | tail -1)
    echo "fuzz_$n: ${runs:-?} inputs in ${secs} s, $cov, no crash"
done
exit $status
