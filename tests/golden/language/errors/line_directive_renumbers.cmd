dtrace -xerrtags -s line_directive_renumbers.d
