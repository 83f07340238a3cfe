dtrace -xerrtags -s char_newline.d
