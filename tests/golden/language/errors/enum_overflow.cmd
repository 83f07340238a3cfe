dtrace -xerrtags -s enum_overflow.d
