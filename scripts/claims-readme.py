#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Print the README's claims table from a claims.csv of `dfly repro claims` (issue 23): the
counts, then one row per verdict with its claims. Used to write the README section between
<!-- claims-table --> markers and by tests/unit/check_claims_docs.py to check it."""
import csv, sys

rows = list(csv.DictReader(open(sys.argv[1])))
verd = ["holds", "partly", "fails", "not-run", "not-implemented"]
print("| verdict | claims | which |")
print("|---|---|---|")
for v in verd:
    ids = [r["id"] for r in rows if r["verdict"] == v]
    links = ", ".join("[%s](docs/claims.md#%s)" % (i, i.lower()) for i in ids)
    print("| %s | %d | %s |" % (v, len(ids), links or "—"))
