"""What bench/history_aa.py and bench/history_control.py share: a copy of a
sittings database whose sittings in `series` (others gone) are labelled
6.18.1, 6.18.2, ... in that order, and kbench history's figures on it."""
import json
import sqlite3
import subprocess


def series_figures(kb, path, series, edit=None):
    """On the copy at path: keep the runs of the sittings in series, call
    edit(connection) when given (before the relabelling), label them in
    order, and return `kbench history --by label --json`'s figures but the
    sentinel's, each change with "sittings": the two either side."""
    c = sqlite3.connect(path)
    c.execute("DELETE FROM runs WHERE label NOT IN (%s)" % ",".join("?" * len(series)), series)
    if edit:
        edit(c)
    for i, lab in enumerate(series):
        c.execute("UPDATE runs SET label = ? WHERE label = ?", ("6.18.%d" % (i + 1), lab))
    c.commit()
    c.close()
    out = subprocess.run([kb, "history", "--by", "label", "--json", "--db", path],
                         capture_output=True, text=True, check=True).stdout
    figs = [f for f in json.loads(out)["figures"] if not f["sentinel"]]
    for f in figs:
        for ch in f["changes"]:
            ch["sittings"] = (series[int(ch["from"].split(".")[-1]) - 1],
                              series[int(ch["to"].split(".")[-1]) - 1])
    return figs
