dtrace -l -n 'profile:::tick-1*'
