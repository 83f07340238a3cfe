dtrace -x plugins=etw -n 'sched:::on-cpu {}'
