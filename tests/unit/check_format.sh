#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Every C file of the tree is as clang-format leaves it (.clang-format: tabs, 100 columns, K&R;
# docs/STYLE.md). Fails naming each file and the first lines clang-format would change; fix with
#   clang-format -i FILE
src="${1:?usage: check_format.sh SOURCE_DIR}"
cd "$src" || exit 1
if ! command -v clang-format >/dev/null; then
    echo "clang-format not installed (scripts/deps.sh installs it)"
    exit 1
fi
files=$(find include asic-emu control config traffic sim dataplane tools tests scripts \
    -name '*.[ch]' -not -path 'tests/fuzz/corpus/*' | LC_ALL=C sort)
bad=0
n=0
for f in $files; do
    n=$((n + 1))
    if ! clang-format --dry-run --Werror "$f" >/dev/null 2>&1; then
        echo "not formatted: $f"
        clang-format "$f" | diff "$f" - | head -6
        bad=$((bad + 1))
    fi
done
if [ "$bad" -gt 0 ]; then
    echo "$bad of $n files differ from clang-format $(clang-format --version | grep -o '[0-9][0-9.]*' | head -1)"
    exit 1
fi
echo "$n files as clang-format leaves them"
