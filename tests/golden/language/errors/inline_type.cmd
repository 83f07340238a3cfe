dtrace -xerrtags -s inline_type.d
