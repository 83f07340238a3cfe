sh -c 't=$(mktemp -d) && dtrace -h -s $DIR/header.d -o $t/header.h && cat $t/header.h; rm -rf $t'
