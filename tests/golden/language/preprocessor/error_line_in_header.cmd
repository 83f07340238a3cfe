dtrace -C -xerrtags -s error_line_in_header.d
