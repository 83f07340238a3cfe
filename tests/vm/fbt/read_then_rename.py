#!/usr/bin/python3
# read_then_rename.py: one 12345-byte read(2) of a file named
# "before-event" by a process named "before-event"; right after it, the
# file and the process are renamed "after-event" and stay so for a second.
# Memory read when the function is called names both "before-event";
# memory read when dtrace runs the clause, milliseconds later, would find
# the new names (a short name is rewritten in place in the dentry and in
# the task's comm).
import os
import tempfile
import time

folder = tempfile.mkdtemp()
before = os.path.join(folder, "before-event")
with open(before, "w") as f:
    f.write("x" * 20000)
with open("/proc/self/comm", "w") as comm:
    comm.write("before-event")
fd = os.open(before, os.O_RDONLY)
os.read(fd, 12345)
os.rename(before, os.path.join(folder, "after-event"))
with open("/proc/self/comm", "w") as comm:
    comm.write("after-event")
time.sleep(1)
os.close(fd)
os.unlink(os.path.join(folder, "after-event"))
os.rmdir(folder)
