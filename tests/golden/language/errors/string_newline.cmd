dtrace -xerrtags -s string_newline.d
