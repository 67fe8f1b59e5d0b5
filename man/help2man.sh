#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Build step of man/meson.build: one man page from a binary's --help, with help2man. A page per
# `dfly` subcommand (dfly-sim.1 from `dfly sim --help`) needs an executable named dfly-sim for
# help2man to run, so help2man always runs a wrapper named after the page, in a temporary
# directory, that calls this script back (--print-help) with the binary and subcommand in the
# environment. The help text is the binary's own, on standard output; only its usage block is
# respelled for help2man's SYNOPSIS: "usage:" as "Usage:", a further synopsis line (one that
# starts with the program's name) as "or:", and a wrapped synopsis line joined to its first part.
#   help2man.sh HELP2MAN OUTPUT INCLUDE VERSION REVFILE PAGE DESCRIPTION EXE [SUBCOMMAND]
# VERSION is the project's, REVFILE the output of meson's vcs_tag (the commit); the page says
# "PAGE (dfly) VERSION (REV)" without running --version. The locale is C.UTF-8, as help2man's
# default C turns the help's non-ASCII characters (the § of spec references) into '?'.
set -euo pipefail

if [ "${1:-}" = "--print-help" ]; then
    shift
    help=$("$DFLY_MAN_EXE" ${DFLY_MAN_SUB:+"$DFLY_MAN_SUB"} "$@")
    printf '%s\n' "$help" | awk '
        NR == 1 && sub(/^usage:/, "Usage:") { u = $0; prog = $2; inu = 1; next }
        inu && /^[ \t]*$/ { print u; inu = 0; print; next }
        inu && $1 == prog { print u; sub(/^[ \t]+/, ""); u = "   or: " $0; next }
        inu { sub(/^[ \t]+/, " "); u = u $0; next }
        { print }
        END { if (inu) print u }'
    exit 0
fi

usage="usage: help2man.sh HELP2MAN OUTPUT INCLUDE VERSION REVFILE PAGE DESCRIPTION EXE [SUB]"
h2m="${1:?$usage}"
out="${2:?$usage}"
include="${3:?$usage}"
version="${4:?$usage}"
revfile="${5:?$usage}"
page="${6:?$usage}"
desc="${7:?$usage}"
exe="${8:?$usage}"
sub="${9:-}"

rev=$(head -n 1 "$revfile")
self=$(realpath "$0")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dfly-man-XXXXXX")
trap 'rm -rf "$tmp"' EXIT

printf '#!/bin/sh\nexec "$DFLY_MAN_SELF" --print-help "$@"\n' >"$tmp/$page"
chmod +x "$tmp/$page"

DFLY_MAN_SELF="$self" DFLY_MAN_EXE=$(realpath "$exe") DFLY_MAN_SUB="$sub" \
    "$h2m" --no-info --section=1 --locale=C.UTF-8 --name="$desc" --include="$include" \
    --version-string="$page (dfly) $version ($rev)" \
    --output="$out" "$tmp/$page"
