#!/usr/bin/python3
# read_held_open.py: one 12345-byte read(2) of /etc/passwd by a process that
# keeps the file open for two seconds more, so that the kernel's struct file
# is still the file's when dtrace reads its name (kernel memory is read
# after the event; see plugins/fbt/README.md).
import os
import time

fd = os.open("/etc/passwd", os.O_RDONLY)
os.read(fd, 12345)
time.sleep(2)
