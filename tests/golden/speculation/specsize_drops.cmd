dtrace -q -x specsize=64 -s specsize_drops.d
