dtrace -x bufresize=sometimes -n BEGIN
