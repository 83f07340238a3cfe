#!/usr/bin/python3
# open_then_overwrite.py: one openat(2) of "/nonexistent/before-event", its
# directory descriptor -77 (ignored for an absolute path: the call tells
# itself apart by it), from a buffer overwritten with
# "/nonexistent/after-event!" right after the call returns, and kept so for
# a second. copyinstr() of the path at the event reads "before-event"; read
# when dtrace runs the clause, milliseconds later, it would be "after-event!".
import ctypes
import time

libc = ctypes.CDLL(None, use_errno=True)
path = ctypes.create_string_buffer(b"/nonexistent/before-event", 64)
libc.openat(-77, path, 0)
ctypes.memmove(path, b"/nonexistent/after-event!\0", 26)
time.sleep(1)
