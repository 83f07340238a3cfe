# usdt_gc.py N: N explicit garbage collections (for python:::gc-start).
import gc
import sys

for _ in range(int(sys.argv[1])):
    gc.collect()
