sh -c 'dtrace -x plugin=$BUILD/sdk/examples/skeleton/skeleton.so -x plugins=help | grep -A2 "^dtrace \|^profile \|^skeleton " | sed "s|$BUILD|BUILD|"'
