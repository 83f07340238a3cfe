dtrace -C -xerrtags -s error_line_after_comment.d
