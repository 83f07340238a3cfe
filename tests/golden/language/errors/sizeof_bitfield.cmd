dtrace -xerrtags -s sizeof_bitfield.d
