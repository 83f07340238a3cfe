dtrace -x encoding=UTF-8 -n BEGIN
