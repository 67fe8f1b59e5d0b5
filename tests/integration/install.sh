#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# `meson install` (issue 24, docs/install.md), into a temporary DESTDIR from the built tree:
#   1. the three binaries, each answering --help;
#   2. every configs/*.cfg and configs/testbed/*.cfg (and configs/README.md), byte-identical, and
#      usable where they land: dfly topo on h1.cfg, dfly-switch --check on each deployment (they
#      name their network as ../h1.cfg);
#   3. the dissector dfly.lua, byte-identical, in the Wireshark plugin folder;
#   4. the man pages, when the build made them: one per binary and per `dfly` subcommand (the
#      commands of `dfly --help`); each renders with groff without a warning and has NAME
#      ("PAGE - ..."), SYNOPSIS, the first option of its --help (else its first --word), and
#      its first non-ASCII character, if any;
#   5. nothing else.
# The directories are the ones meson computed (absolute, under the prefix or not); an empty
# MAN1DIR means no man pages (no help2man). Takes a few seconds; the DESTDIR is removed on exit.
set -u
usage="usage: install.sh MESON BUILD SOURCE BINDIR CONFIGDIR WIRESHARK_DIR MAN1DIR [PAGE]..."
meson="${1:?$usage}"
build="${2:?$usage}"
src="${3:?$usage}"
bindir="${4:?$usage}"
configdir="${5:?$usage}"
wsdir="${6:?$usage}"
man1dir="${7?$usage}"
shift 7
pages=("$@")
# meson passes paths relative to the build directory
build=$(realpath "$build")
src=$(realpath "$src")
tmp=$(mktemp -d /tmp/dfly-install-XXXXXX)
dest="$tmp/dest"
trap 'rm -rf "$tmp" /var/run/dpdk/dflyin$$' EXIT
trap 'exit 1' INT TERM
errors=0
fail() {
    echo "FAIL: $*"
    errors=$((errors + 1))
}
expected="$tmp/expected"
: >"$expected"
want() { echo "$dest$1" >>"$expected"; }

DESTDIR="$dest" "$meson" install -C "$build" --no-rebuild --quiet >"$tmp/install.log" 2>&1 || {
    cat "$tmp/install.log"
    echo "FAIL: meson install"
    exit 1
}

# 1. binaries
for b in dfly dfly-switch dfly-controld; do
    want "$bindir/$b"
    if [ ! -x "$dest$bindir/$b" ]; then
        fail "$bindir/$b not installed"
    elif ! "$dest$bindir/$b" --help >"$tmp/help" 2>&1 || ! grep -q '^usage: ' "$tmp/help"; then
        fail "$bindir/$b --help"
    fi
done

# 2. configs
n=0
for f in "$src"/configs/README.md "$src"/configs/*.cfg "$src"/configs/testbed/*.cfg; do
    rel=${f#"$src"/configs/}
    want "$configdir/$rel"
    n=$((n + 1))
    cmp -s "$f" "$dest$configdir/$rel" || fail "configs/$rel not installed as $configdir/$rel"
done
[ "$n" -ge 10 ] || fail "only $n files in $src/configs"
"$dest$bindir/dfly" topo "$dest$configdir/h1.cfg" >"$tmp/topo" 2>&1 ||
    fail "dfly topo $configdir/h1.cfg: $(head -3 "$tmp/topo")"
# the settings h1-netns.cfg says to run with (its hosts need 1514-byte frames)
eal=(--no-huge -m 512 --no-pci --no-shconf -l 0 --log-level=error --file-prefix "dflyin$$")
sets=(--set packet.phit_bytes=64 --set buffers.local=64 --set buffers.output=64)
for f in "$dest$configdir"/testbed/*.cfg; do
    "$dest$bindir/dfly-switch" "${eal[@]}" -- "$f" "${sets[@]}" --check >"$tmp/check" 2>&1 ||
        fail "dfly-switch --check ${f#"$dest"}: $(tail -3 "$tmp/check")"
done

# 3. dissector
want "$wsdir/dfly.lua"
cmp -s "$src/tools/wireshark/dfly.lua" "$dest$wsdir/dfly.lua" ||
    fail "tools/wireshark/dfly.lua not installed as $wsdir/dfly.lua"

# 4. man pages
if [ -z "$man1dir" ]; then
    echo "note: no man pages in this build (no help2man, or -Dman=disabled): not checked"
else
    # every binary and every command of `dfly --help` has its page
    cmds=$("$dest$bindir/dfly" --help | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z]*\) .*/\1/p')
    [ -n "$cmds" ] || fail "no commands in dfly --help"
    for p in dfly dfly-switch dfly-controld $(printf 'dfly-%s\n' $cmds); do
        printf '%s\n' "${pages[@]}" | grep -qx "$p" || fail "no man page $p.1 in the build"
    done
    for p in "${pages[@]}"; do
        f="$dest$man1dir/$p.1"
        want "$man1dir/$p.1"
        if [ ! -f "$f" ]; then
            fail "$man1dir/$p.1 not installed"
            continue
        fi
        if ! groff -k -man -Tutf8 -ww -z "$f" >"$tmp/warn" 2>&1 || [ -s "$tmp/warn" ]; then
            fail "$p.1 does not render cleanly: $(head -3 "$tmp/warn")"
        fi
        # (spaces squeezed: man justifies lines)
        LC_ALL=C MANWIDTH=80 man -l "$f" 2>"$tmp/warn" | tr -s ' ' >"$tmp/page"
        [ "${PIPESTATUS[0]}" -eq 0 ] || fail "man -l $p.1: $(head -3 "$tmp/warn")"
        # its --help: the binary of that name, else the dfly subcommand
        if [ -x "$dest$bindir/$p" ]; then
            "$dest$bindir/$p" --help >"$tmp/help" 2>&1
        else
            "$dest$bindir/dfly" "${p#dfly-}" --help >"$tmp/help" 2>&1
        fi
        opt=$(sed -n 's/^ \{1,10\}\(-[A-Za-z], \)\{0,1\}\(--[a-z][a-z0-9-]*\).*/\2/p' "$tmp/help" |
            head -1)
        [ -n "$opt" ] || opt=$(grep -o -- '--[a-z][a-z0-9-]*' "$tmp/help" | head -1)
        # a non-ASCII character of the help (a §) kept as it is
        ch=$(grep -o -P '[^\x00-\x7f]' "$tmp/help" | head -1)
        [ -z "$ch" ] || grep -qF "$ch" "$f" || fail "$p.1: no '$ch' (from its --help)"
        grep -q '^NAME$' "$tmp/page" || fail "$p.1: no NAME section"
        grep -q "^ *$p - [a-z]" "$tmp/page" || fail "$p.1: no '$p - ...' in NAME"
        grep -q '^SYNOPSIS$' "$tmp/page" || fail "$p.1: no SYNOPSIS section"
        [ -n "$opt" ] && grep -q -- "$opt" "$tmp/page" || fail "$p.1: no '$opt' (from its --help)"
    done
fi

# 5. nothing else
find "$dest" -type f | sort >"$tmp/installed"
sort -o "$expected" "$expected"
if ! cmp -s "$expected" "$tmp/installed"; then
    fail "installed files differ from the expected ones (< expected, > installed):"
    diff "$expected" "$tmp/installed" | grep '^[<>]' | sed "s|$dest||"
fi

[ "$errors" -eq 0 ] || exit 1
echo "ok: $(wc -l <"$tmp/installed") files installed under $dest, ${#pages[@]} man pages"
