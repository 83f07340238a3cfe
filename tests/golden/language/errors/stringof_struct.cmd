dtrace -xerrtags -s stringof_struct.d
