#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The layers of dfly (docs/ARCHITECTURE.md, DESIGN.md §2), checked on every #include.

Dependencies point one way:
    include/dfly <- asic-emu <- control <- config <- traffic <- sim, dataplane <- tools
A file may include headers of its own folder and of lower layers only; sim/ and dataplane/ are
peers and include neither each other. External libraries stay where they belong: DPDK
(rte_*.h) in dataplane/ only, libpcap in traffic/, dataplane/ and tools/, libconfig in config/
and the dataplane's deployment loader. The portable core (include/dfly, asic-emu, control,
dataplane/{llr,host}) includes none of them.

Usage: check_layers.py SOURCE_DIR. Prints every offending line (file:line: why) and exits 1,
or prints how many files and includes were checked.
"""
import os
import re
import sys

LAYERS = [  # (folder, rank)
    ("include/dfly", 0),
    ("asic-emu", 1),
    ("control", 2),
    ("config", 3),
    ("traffic", 4),
    ("sim", 5),
    ("dataplane", 5),
    ("tools", 6),
]
# Which external headers each folder may include (prefixes of the <...> name).
EXTERNAL = {
    "rte_": {"dataplane"},
    "pcap": {"traffic", "dataplane", "tools"},
    "libconfig": {"config", "dataplane/deploy.c"},
}
PORTABLE = ["include/dfly", "asic-emu", "control", "dataplane/llr.", "dataplane/host."]
INC = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else "."
    files = {}  # relative path -> layer folder
    for folder, _ in LAYERS:
        for root, _, names in os.walk(os.path.join(src, folder)):
            for n in names:
                if n.endswith((".c", ".h")):
                    rel = os.path.relpath(os.path.join(root, n), src)
                    files[rel] = folder
    rank = dict(LAYERS)
    owner = {}  # header basename -> folders that have it
    for rel, folder in files.items():
        if rel.endswith(".h"):
            owner.setdefault(os.path.basename(rel), set()).add(folder)
    bad, nincl = [], 0
    for rel, folder in sorted(files.items()):
        with open(os.path.join(src, rel), encoding="utf-8") as f:
            for lineno, line in enumerate(f, 1):
                m = INC.match(line)
                if not m:
                    continue
                nincl += 1
                kind, name = m.groups()
                where = f"{rel}:{lineno}"
                if kind == "<":
                    for prefix, allowed in EXTERNAL.items():
                        if not name.startswith(prefix):
                            continue
                        if not any(rel == a or rel.startswith(a + "/") or folder == a
                                   for a in allowed):
                            bad.append(f"{where}: <{name}> is not for {folder}/")
                        if any(rel.startswith(p) for p in PORTABLE):
                            bad.append(f"{where}: <{name}> in the portable core")
                    continue
                if name.startswith("dfly/"):
                    target = {"include/dfly"}
                else:
                    target = owner.get(os.path.basename(name))
                    if target is None:
                        bad.append(f'{where}: "{name}" is in no layer')
                        continue
                    if folder in target:
                        continue  # its own folder
                    if len(target) > 1:
                        bad.append(f'{where}: "{name}" exists in {sorted(target)}')
                        continue
                t = next(iter(target))
                if rank[t] > rank[folder] or (rank[t] == rank[folder] and t != folder):
                    bad.append(f'{where}: "{name}" is {t}/, a layer above or beside {folder}/')
    if bad:
        print("includes against the layers (include/dfly <- asic-emu <- control <- config <- "
              "traffic <- sim, dataplane <- tools):")
        print("\n".join(bad))
        return 1
    print(f"{len(files)} files, {nincl} includes checked: every one points down the layers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
