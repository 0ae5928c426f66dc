#!/usr/bin/env python3
"""Report kbench's figures to LAVA: one lava-test-case a figure.

Reads a KCIDB report written by `kbench export --format kcidb` (its tests
carry the figure's path, status, level and unit) and calls LAVA's
lava-test-case helper for each, with the level as the measurement, so the
job's results page lists every figure.  A figure measured under emulation
(kbench kernels under TCG) is reported with "-emulated" after its name:
a lab must not take it for a kernel's.  Usage: kbench-lava.py REPORT.json
(lava-test-case is looked up on PATH, as LAVA's test shell provides it).
"""
import json
import subprocess
import sys

RESULT = {"PASS": "pass", "FAIL": "fail", "SKIP": "skip"}


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: kbench-lava.py REPORT.json")
    with open(sys.argv[1]) as f:
        report = json.load(f)
    failed = 0
    for t in report.get("tests", []):
        name = t["path"] + ("-emulated" if t.get("misc", {}).get("emulated") else "")
        cmd = ["lava-test-case", name, "--result", RESULT.get(t.get("status"), "unknown")]
        num = t.get("number")
        if num is not None:
            cmd += ["--measurement", repr(num["value"])]
            if num.get("unit"):
                cmd += ["--units", num["unit"]]
        failed |= subprocess.call(cmd) != 0
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
