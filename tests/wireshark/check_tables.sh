#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The generated block of tools/wireshark/dfly.lua (constants and name tables between the
# "-- BEGIN GENERATED" and "-- END GENERATED" lines) must be what `mkpcap --lua-tables` prints
# from the headers: a counter, drop reason, capture point, message type or flag added to a header
# and not to the dissector fails here. Needs no tshark.
set -eu
mkpcap="${1:?usage: check_tables.sh MKPCAP DFLY_LUA}"
lua="${2:?usage: check_tables.sh MKPCAP DFLY_LUA}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$mkpcap" --lua-tables >"$tmp/want"
awk '/^-- END GENERATED/ { inside = 0 }
     inside && !/^--/ { print }
     /^-- BEGIN GENERATED/ { inside = 1 }' "$lua" >"$tmp/have"
[ -s "$tmp/have" ] || { echo "FAIL: no generated block in $lua"; exit 1; }
if ! diff -u "$tmp/have" "$tmp/want"; then
    echo "FAIL: the generated block of $lua differs from the headers (- dfly.lua, + headers);"
    echo "      replace it with the output of: $mkpcap --lua-tables"
    exit 1
fi
echo "dfly.lua tables match the headers ($(wc -l <"$tmp/want") lines)"
