dtrace -xerrtags -s char_too_long.d
