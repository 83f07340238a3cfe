dtrace -xerrtags -s xlate_none.d
