#!/bin/sh
# load_dummy.sh DUMMY_KO: loads the dummy network driver (its dummy0 comes up
# with it), waits for dtrace to see the module (it polls /proc/modules), then
# reads two of dummy0's statistics: each read calls dummy_get_stats64 once,
# from cat.
insmod "$1" || exit 1
sleep 5
cat /sys/class/net/dummy0/statistics/rx_packets /sys/class/net/dummy0/statistics/tx_packets
