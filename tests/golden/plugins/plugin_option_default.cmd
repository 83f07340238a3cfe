dtrace -x plugin=$BUILD/sdk/examples/skeleton/skeleton.so -qn "skeleton:::beat { @[args[0]] = count(); exit(0); }"
