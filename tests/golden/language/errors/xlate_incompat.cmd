dtrace -xerrtags -s xlate_incompat.d
