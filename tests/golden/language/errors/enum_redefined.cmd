dtrace -xerrtags -s enum_redefined.d
