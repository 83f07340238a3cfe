dtrace -x plugins=sdt -lv -n tcp:::state-change
