dtrace -xerrtags -s reserved_counter.d
