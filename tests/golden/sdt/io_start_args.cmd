dtrace -x plugins=sdt -lv -n io:::start
