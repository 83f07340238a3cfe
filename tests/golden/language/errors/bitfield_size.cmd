dtrace -xerrtags -s bitfield_size.d
