dtrace -x plugins=sdt -l -n proc::: -n sched::: -n ip::: -n udp:::
