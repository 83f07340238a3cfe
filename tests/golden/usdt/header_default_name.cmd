sh -c 't=$(mktemp -d) && cd $t && dtrace -h -s $DIR/header_default_name.d && dtrace -G -s $DIR/header_default_name.d && ls && head -7 header_default_name.h; rm -rf $t'
