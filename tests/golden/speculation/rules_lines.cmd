dtrace -xerrtags -s rules_lines.d
