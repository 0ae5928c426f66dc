# Every figure of the runs labelled LABEL in the SQLite database DB
# multiplied by FACTOR (levels, medians, intervals, spread, samples,
# replicas and their fast levels, curve points; not the sentinel, which is
# the machine's): what a kernel that much slower at everything (or, for a
# rate, faster) would have given on the same machine.  Used by bench/sensitivity.sh and bench/aa_splits.sh.
#
# usage: python3 bench/scale_side.py DB LABEL FACTOR
import sqlite3
import sys

db = sqlite3.connect(sys.argv[1])
label, f = sys.argv[2], float(sys.argv[3])
side = "(SELECT r.id FROM results r JOIN runs u ON u.id = r.run_id WHERE u.label = ?)"
db.execute("UPDATE results SET median = median * ?1, ci_low = ci_low * ?1, ci_high = ci_high * ?1,"
           " min = min * ?1, max = max * ?1, mean = mean * ?1, stddev = stddev * ?1,"
           " p5 = p5 * ?1, p95 = p95 * ?1, aggregate = aggregate * ?1 WHERE id IN "
           + side.replace("?", "?2"), (f, label))
# The level (schema 11 on): what compare and history test.
if [r for r in db.execute("PRAGMA table_info(results)") if r[1] == "level"]:
    db.execute("UPDATE results SET level = level * ?1, level_low = level_low * ?1,"
               " level_high = level_high * ?1 WHERE id IN " + side.replace("?", "?2"), (f, label))
db.execute("UPDATE samples SET value = value * ?1 WHERE result_id IN " + side.replace("?", "?2"),
           (f, label))
if [r for r in db.execute("PRAGMA table_info(result_replicas)")]:
    db.execute("UPDATE result_replicas SET median = median * ?1, ci_low = ci_low * ?1,"
               " ci_high = ci_high * ?1 WHERE result_id IN " + side.replace("?", "?2"), (f, label))
    if [r for r in db.execute("PRAGMA table_info(result_replicas)") if r[1] == "fast"]:
        db.execute("UPDATE result_replicas SET fast = fast * ?1 WHERE result_id IN "
                   + side.replace("?", "?2"), (f, label))
db.execute("UPDATE result_points SET y = y * ?1, lo = lo * ?1, hi = hi * ?1 WHERE result_id IN "
           + side.replace("?", "?2"), (f, label))
db.commit()
