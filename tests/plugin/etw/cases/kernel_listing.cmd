sh -c 'dtrace -lv -n proc:::start -n sched:::off-cpu -n io:::done -n tcpip:::send -E "$ETW_FIXTURES/kernel.etl"'
