sh -c 'dtrace -s fault_past_alloca.d 2>&1 | sed "s/(0x[0-9a-f]*)/(ADDRESS)/"'
