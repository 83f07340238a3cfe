dtrace -x plugins=fbt -q -n 'fbt::vfs_read:entry /pid == $target && arg2 == 12345/ { @[stringof(args[0]->f_path.dentry->d_name.name)] = count(); }' -c $DIR/read_held_open.py
