dtrace -xerrtags -s offsetof_bitfield.d
