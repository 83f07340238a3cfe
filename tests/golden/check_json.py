#!/usr/bin/env python3
"""Checks -x oformat=json against every golden test that prints aggregations.

Usage: check_json.py DTRACE GOLDEN_DIR

For each golden test that exits 0 and whose program uses an aggregation (a
NAME.d, or a NAME.cmd that runs dtrace directly), runs it again with
`-x oformat=json` and checks that
  - every line of standard output parses with Python's JSON parser as an
    object of the documented schema (docs/dtrace.1, "JSON OUTPUT");
  - the numbers round-trip: each aggregation row's value (and each bucket's
    lower bound and count of a distribution) is a number that the test's
    expected text output (NAME.out) prints as a word;
  - a program that aggregates without printa() prints at least one JSON
    aggregation.
Tests that change the aggregation layout (aggpack, agghist, aggzoom, printa
formats) are still parsed but their numbers are not looked up, as the text
does not print them as words. Exit status 0: pass, 1: fail (listing why).
"""
import json
import os
import re
import shlex
import subprocess
import sys

TIMEOUT_SECONDS = 60
LAYOUT_OPTIONS = re.compile(r"aggpack|agghist|aggzoom|printa\s*\(\s*\"|normalize|system\s*\(|freopen")


def read(path):
    with open(path, "rb") as f:
        return f.read().decode(errors="replace")


def command_of(dtrace, stem, build):
    """The test's argv with -x oformat=json, or None when it is not a plain dtrace command."""
    folder = os.path.dirname(stem)
    if os.path.exists(stem + ".cmd"):
        line = read(stem + ".cmd").strip().replace("$DIR", folder).replace("$BUILD", build)
        argv = shlex.split(line)
        if not argv or argv[0] != "dtrace":
            return None
        return [dtrace, "-x", "oformat=json"] + argv[1:]
    return [dtrace, "-x", "oformat=json", "-s", os.path.basename(stem) + ".d"]


def check_object(obj):
    """Why `obj` is not of the schema, or None."""
    if "aggregation" in obj:
        if not isinstance(obj.get("rows"), list) or not isinstance(obj.get("function"), str):
            return "an aggregation without rows or function"
        for row in obj["rows"]:
            if not isinstance(row.get("keys"), list):
                return "a row without keys"
            value = row.get("value")
            if isinstance(value, dict):
                buckets = value.get("buckets", [])
                if not all(isinstance(b.get("count"), int) for b in buckets):
                    return "a bucket without an integer count"
                if not all("min" in b and (b["min"] is None or isinstance(b["min"], int)) for b in buckets):
                    return "a bucket without an integer or null lower bound"
            elif not isinstance(value, int):
                return "a row whose value is not an integer: %r" % (value,)
        return None
    if "probe" in obj:
        if not isinstance(obj.get("output"), list) or "id" not in obj["probe"]:
            return "a firing without output or probe id"
        return None
    return "an object that is neither a firing nor an aggregation"


def numbers_of(obj):
    for row in obj["rows"]:
        value = row["value"]
        if isinstance(value, dict):
            for bucket in value["buckets"]:
                yield bucket["count"]
                if bucket["min"] is not None:
                    yield bucket["min"]
        else:
            yield value


def check_test(dtrace, stem, build):
    """(checked, failure): whether the test was checked, and why it failed."""
    script = stem + ".d"
    program = (read(script) if os.path.exists(script) else "") + (read(stem + ".cmd") if os.path.exists(stem + ".cmd") else "")
    if "@" not in program or os.path.exists(stem + ".status") or "oformat" in program or "stackformat" in program:
        return False, None
    argv = command_of(dtrace, stem, build)
    if argv is None:
        return False, None
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(dtrace) + os.pathsep + env.get("PATH", "")
    try:
        proc = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, timeout=TIMEOUT_SECONDS,
                              cwd=os.path.dirname(stem), env=env)
    except subprocess.TimeoutExpired:
        return True, "did not finish"
    if proc.returncode != 0:
        return True, "exit status %d: %s" % (proc.returncode, proc.stderr.decode(errors="replace").strip())
    expected_words = set(read(stem + ".out").split()) if os.path.exists(stem + ".out") else set()
    look_up_numbers = not LAYOUT_OPTIONS.search(program)
    aggregations = 0
    for line in proc.stdout.decode(errors="replace").splitlines():
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except ValueError as e:
            return True, "not JSON: %r (%s)" % (line[:120], e)
        if not isinstance(obj, dict):
            return True, "not a JSON object: %r" % line[:120]
        why = check_object(obj)
        if why:
            return True, why + ": " + line[:120]
        if "aggregation" not in obj:
            continue
        aggregations += 1
        if look_up_numbers:
            for number in numbers_of(obj):
                if str(number) not in expected_words:
                    return True, "%s: %d is not a number the text output prints" % (obj["aggregation"], number)
    if aggregations == 0 and re.search(r"@\w*\s*\[|@\w*\s*=", program) and "printa" not in program:
        return True, "no aggregation in the JSON output"
    return True, None


def main():
    dtrace, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    build = os.path.dirname(dtrace)
    checked, failures = 0, []
    for folder, _, files in sorted(os.walk(root)):
        if "lib" in os.path.relpath(folder, root).split(os.sep):
            continue  # D library files that tests load with -L
        stems = sorted({os.path.splitext(f)[0] for f in files if f.endswith((".d", ".cmd"))})
        for name in stems:
            stem = os.path.join(folder, name)
            was_checked, failure = check_test(dtrace, stem, build)
            checked += was_checked
            if failure:
                failures.append("%s: %s" % (os.path.relpath(stem, root), failure))
    for failure in failures:
        print("FAIL " + failure)
    print("%d golden tests with aggregations checked, %d failed" % (checked, len(failures)))
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
