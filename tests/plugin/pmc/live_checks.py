"""live_checks.py: what the pmc plugin's live test scripts share: running dtrace
bounded in time, and recording each check's outcome (SKIP is the exit status
of a check that cannot run here)."""
import subprocess

SKIP = 77
TIMEOUT = 60


class Checks:
    def __init__(self, dtrace):
        self.dtrace = dtrace
        self.failures = []

    def run(self, script, command=None, extra=()):
        """dtrace -q [extra] -n SCRIPT [-c COMMAND]: (status, stdout, stderr)."""
        args = [self.dtrace, "-q", *extra, "-n", script]
        if command:
            args += ["-c", command]
        p = subprocess.run(args, capture_output=True, text=True, timeout=TIMEOUT)
        return p.returncode, p.stdout, p.stderr

    def check(self, what, ok, output=""):
        if not ok:
            self.failures.append(what)
            print(f"FAIL: {what}\n--- output:\n{output}\n---")
        else:
            print(f"ok: {what}")

    def status(self):
        """The exit status: 0 when every check passed, else 1 (saying how many failed)."""
        print("all checks passed" if not self.failures else f"{len(self.failures)} checks failed")
        return 1 if self.failures else 0
