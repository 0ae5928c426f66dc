#!/usr/bin/env python3
"""compare's detectable change over every pair of sittings: for each pair of
labels s1..sN of a bench/sittings.sh database (KEEP=dir keeps it), the other
sittings labelled H (the host's history), `kbench compare A B --threshold 5
--json`, and of every cell but cpu.mhz its `detectable`: prints the count,
the median, and how many cells would see 10% and 20%.  With a second kbench
from before levels (store version 10), the same on a copy marked version 10.

usage: python3 bench/compare_detectable.py DB KBENCH [OLD_KBENCH]
"""
import itertools
import json
import os
import shutil
import sqlite3
import statistics as st
import subprocess
import sys
import tempfile


def detectables(db, kb, old, work):
    labels = [r[0] for r in sqlite3.connect(db).execute(
        "SELECT label FROM runs GROUP BY label ORDER BY min(id)") if r[0].startswith("s")]
    out = []
    for a, b in itertools.combinations(labels, 2):
        path = os.path.join(work, "pair.db")
        shutil.copy(db, path)
        c = sqlite3.connect(path)
        c.execute("UPDATE runs SET label = 'H' WHERE label NOT IN (?, ?)", (a, b))
        if old:
            c.execute("PRAGMA user_version = 10")
        c.commit()
        c.close()
        doc = json.loads(subprocess.run([kb, "compare", a, b, "--db", path, "--threshold", "5", "--json"],
                                        check=True, capture_output=True, text=True).stdout)
        for r in doc["rows"]:
            cell = r["cells"][1]
            if cell["present"] and r["id"] != "cpu.mhz" and cell.get("detectable") is not None:
                out.append(cell["detectable"])
    return out


def main():
    db, kbs = sys.argv[1], sys.argv[2:]
    with tempfile.TemporaryDirectory() as work:
        for i, kb in enumerate(kbs):
            d = detectables(db, kb, i == 1, work)
            print("%s: %d cells, median detectable %.1f%%, %d detect 10%%, %d detect 20%%" % (
                kb, len(d), 100 * st.median(d), sum(x <= 0.10 for x in d), sum(x <= 0.20 for x in d)))


if __name__ == "__main__":
    main()
