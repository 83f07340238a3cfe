dtrace -x plugins=sdt -lv -n lockstat:::rw-block
