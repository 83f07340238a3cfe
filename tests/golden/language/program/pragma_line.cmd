dtrace -xerrtags -s pragma_line.d
