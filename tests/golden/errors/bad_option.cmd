dtrace -x nosuchoption=1 -n BEGIN
