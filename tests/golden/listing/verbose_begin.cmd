dtrace -lv -n dtrace:::BEGIN
