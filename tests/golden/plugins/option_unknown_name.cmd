dtrace -x plugins=etw -x nosuchoption=1 -n BEGIN
