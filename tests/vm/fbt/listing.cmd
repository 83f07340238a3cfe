dtrace -x plugins=fbt -lv -n fbt::vfs_read:entry
