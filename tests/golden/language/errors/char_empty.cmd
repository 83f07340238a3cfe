dtrace -xerrtags -s char_empty.d
