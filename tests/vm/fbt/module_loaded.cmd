dtrace -x plugins=fbt -Z -q -n 'fbt:dummy:dummy_get_stats64:entry /execname == "cat"/ { @[probemod, probefunc] = count(); }' -c "$DIR/load_dummy.sh $BUILD/vm-kernel/test-modules/dummy.ko"
