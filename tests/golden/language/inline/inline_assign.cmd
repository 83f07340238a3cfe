dtrace -xerrtags -s inline_assign.d
