dtrace -xerrtags -s xlate_memb.d
