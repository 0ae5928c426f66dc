"""What the history scripts of bench/ share: a copy of a sittings database
whose sittings in `series` (others gone) are labelled 6.18.1, 6.18.2, ...
in that order, and kbench history's figures on it (history_aa.py,
history_control.py); the spread between sittings beyond their runs'
(history_noise.py, compare_levels.py)."""
import json
import sqlite3
import statistics as st
import subprocess


def spread(groups):
    """Between-sitting variance beyond the runs' (one-way random effects,
    moment estimate, floored at 0) and the runs' variance; NaN for both
    with fewer than two groups of two."""
    groups = [g for g in groups if len(g) > 1]
    k = len(groups)
    n = sum(len(g) for g in groups)
    if k < 2:
        return float("nan"), float("nan")
    gm = [st.mean(g) for g in groups]
    grand = sum(sum(g) for g in groups) / n
    msw = sum(sum((x - m) ** 2 for x in g) for g, m in zip(groups, gm)) / (n - k)
    msb = sum(len(g) * (m - grand) ** 2 for g, m in zip(groups, gm)) / (k - 1)
    n0 = (n - sum(len(g) ** 2 for g in groups) / n) / (k - 1)
    return max(0.0, (msb - msw) / n0), msw


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
            ch["sittings"] = (series[int(ch["from_label"].split(".")[-1]) - 1],
                              series[int(ch["to_label"].split(".")[-1]) - 1])
    return figs
