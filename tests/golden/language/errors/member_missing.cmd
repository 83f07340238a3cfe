dtrace -xerrtags -s member_missing.d
