dtrace -xerrtags -s op_incompat.d
