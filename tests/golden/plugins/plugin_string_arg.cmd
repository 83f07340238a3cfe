dtrace -x plugin=$BUILD/sdk/examples/skeleton/skeleton.so -x skeleton_text=hello -qn "skeleton:::beat { printf(\"%s %d\n\", args[0], strlen(args[0])); exit(0); }"
