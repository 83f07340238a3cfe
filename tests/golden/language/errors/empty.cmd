dtrace -xerrtags -s empty.d
