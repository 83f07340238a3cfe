dtrace -qn 'fpid$target:a.out:parse_word:entry, fpid$target:a.out:recurse:return { @[probefunc, probename] = count(); }' -c "$BUILD/tests/targets/pid_target calls:10"
