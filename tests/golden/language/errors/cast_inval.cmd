dtrace -xerrtags -s cast_inval.d
