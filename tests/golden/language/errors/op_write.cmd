dtrace -xerrtags -s op_write.d
