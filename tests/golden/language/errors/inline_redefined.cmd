dtrace -xerrtags -s inline_redefined.d
