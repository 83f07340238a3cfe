#!/bin/sh
# load_dummy.sh DUMMY_KO: loads the dummy network driver (its dummy0 comes up
# with it), waits until dtrace has attached to dummy_get_stats64 (it polls
# /proc/modules, then registers and enables the probe: ftrace lists the
# function among its enabled ones, for fentry and kprobes alike; at most a
# minute), then reads two of dummy0's statistics: each read calls
# dummy_get_stats64 once, from cat. module_loaded.cmd unloads it when dtrace
# has exited (the case runs again with -x fastpath=off in the same guest).
insmod "$1" || exit 1
tries=0
until grep -q '^dummy_get_stats64' /sys/kernel/tracing/enabled_functions 2>/dev/null; do
  tries=$((tries + 1))
  [ $tries -gt 120 ] && { echo "load_dummy.sh: dummy_get_stats64 was not probed within a minute" >&2; break; }
  sleep 0.5
done
cat /sys/class/net/dummy0/statistics/rx_packets /sys/class/net/dummy0/statistics/tx_packets
