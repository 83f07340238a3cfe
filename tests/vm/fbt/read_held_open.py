#!/usr/bin/python3
# read_held_open.py: one 12345-byte read(2) of /etc/passwd by a process that
# keeps the file open for two seconds more, so that the kernel's struct file
# is still the file's even for a read made after the event (the fbt
# programs read the name at the event; event_time.cmd shows the difference).
import os
import time

fd = os.open("/etc/passwd", os.O_RDONLY)
os.read(fd, 12345)
time.sleep(2)
