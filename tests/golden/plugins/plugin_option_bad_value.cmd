dtrace -x plugins=etw -x etwmanifest -n BEGIN
