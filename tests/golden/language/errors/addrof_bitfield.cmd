dtrace -xerrtags -s addrof_bitfield.d
