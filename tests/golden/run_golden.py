#!/usr/bin/env python3
"""Runs one golden test: a D script (or a command line) and its expected output.

A test is a set of files sharing a stem in tests/golden/<chapter>/:
  NAME.d       the D script (run as `dtrace -s NAME.d`, unless NAME.cmd exists);
               a first line `#!/usr/sbin/dtrace OPTIONS -s` (DTrace's own
               script header) runs it as `dtrace OPTIONS -s NAME.d`
  NAME.cmd     optional: the command line, one line, shell syntax; `dtrace` is
               the binary under test (also on PATH for `sh -c`), `$DIR` the test's folder,
               `$BUILD` the build tree the binary sits in (for the test plugins; a
               case naming a file of it that is not built skips, status 77)
  NAME.out     expected standard output, byte for byte (absent: no output)
  NAME.err     optional: expected standard error, byte for byte
  NAME.status  optional: expected exit status (default 0)

With --bless as a third argument, the actual output is written as the
expectation instead (review every blessed file before committing it).

dtrace runs pinned to CPU 0 so that the CPU column of the default output is
stable, with no standard input, and is killed if it runs longer than the
timeout. Exit status 0: pass; 1: fail (with a diff); 77: skipped.
"""
import difflib
import os
import re
import shlex
import subprocess
import sys

# A case's time limit; the VM's runner raises it (software emulation on a
# loaded host is tens of times slower).
TIMEOUT_SECONDS = int(os.environ.get("GOLDEN_TIMEOUT", "60"))


def read(path):
    with open(path, "rb") as f:
        return f.read()


def header_options(script):
    """The options of a `#!/usr/sbin/dtrace OPTIONS -s` first line, without the -s."""
    with open(script, "rb") as f:
        first = f.readline().decode(errors="replace").strip()
    words = shlex.split(first[2:]) if first.startswith("#!") else []
    if len(words) < 2 or not words[0].endswith("dtrace") or words[-1] != "-s":
        return []
    return words[1:-1]


def show_diff(what, expected, actual):
    lines = difflib.unified_diff(
        expected.decode(errors="replace").splitlines(keepends=True),
        actual.decode(errors="replace").splitlines(keepends=True),
        fromfile="expected " + what, tofile="actual " + what)
    sys.stdout.write("".join(lines))
    if not expected.endswith(b"\n") or not actual.endswith(b"\n"):
        sys.stdout.write("\n(expected %r\n actual   %r)\n" % (expected[-80:], actual[-80:]))


def missing_build_files(command_line, build):
    """The files of the build tree a command line names ($BUILD/...) that are absent."""
    paths = re.findall(r"\$BUILD(/[^\s'\"]+)", command_line)
    return [build + p for p in paths if not os.path.exists(build + p)]


def main():
    dtrace, script = sys.argv[1], sys.argv[2]
    stem = os.path.splitext(script)[0]
    folder = os.path.dirname(os.path.abspath(script))
    if os.path.exists(stem + ".cmd"):
        build = os.path.dirname(os.path.abspath(dtrace))
        raw = read(stem + ".cmd").decode().strip()
        missing = missing_build_files(raw, build)
        if missing:
            print("SKIP: %s is not built (build every target to run this test)" % missing[0])
            return 77
        line = raw.replace("$DIR", folder).replace("$BUILD", build)
        argv = shlex.split(line)
        if argv and argv[0] == "dtrace":
            argv[0] = dtrace
    else:
        argv = [dtrace] + header_options(script) + ["-s", os.path.basename(stem) + ".d"]  # relative: messages name it so
    pin = ["taskset", "-c", "0"] if os.path.exists("/usr/bin/taskset") else []
    # `dtrace` inside a shell command line resolves to the binary under test too.
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(os.path.abspath(dtrace)) + os.pathsep + env.get("PATH", "")
    # aggpack draws in ASCII on terminals DTrace deems primitive (TERM=dumb ...): one fixed TERM.
    env["TERM"] = "xterm"
    try:
        proc = subprocess.run(pin + argv, stdin=subprocess.DEVNULL, capture_output=True,
                              timeout=TIMEOUT_SECONDS, cwd=folder, env=env)
    except subprocess.TimeoutExpired:
        print("FAIL: %s did not finish within %d s" % (" ".join(argv), TIMEOUT_SECONDS))
        return 1
    if len(sys.argv) > 3 and sys.argv[3] == "--bless":
        if proc.stdout:  # no NAME.out means "expects no output"
            with open(stem + ".out", "wb") as f:
                f.write(proc.stdout)
        elif os.path.exists(stem + ".out"):
            os.remove(stem + ".out")
        with open(stem + ".err", "wb") as f:
            f.write(proc.stderr)
        if proc.returncode != 0:
            with open(stem + ".status", "w") as f:
                f.write("%d\n" % proc.returncode)
        return 0
    status = int(read(stem + ".status").decode().strip()) if os.path.exists(stem + ".status") else 0
    ok = True
    if proc.returncode != status:
        print("FAIL: exit status %d, expected %d" % (proc.returncode, status))
        ok = False
    expected_out = read(stem + ".out") if os.path.exists(stem + ".out") else b""
    if proc.stdout != expected_out:
        show_diff("stdout", expected_out, proc.stdout)
        ok = False
    if os.path.exists(stem + ".err"):
        expected_err = read(stem + ".err")
        if proc.stderr != expected_err:
            show_diff("stderr", expected_err, proc.stderr)
            ok = False
    if not ok:
        print("command: " + " ".join(shlex.quote(a) for a in argv))
        print("stderr was:\n" + proc.stderr.decode(errors="replace"))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
