dtrace -xerrtags -s line_directive_malformed.d
