sh -c 't=$(mktemp -d) && dtrace -G -s $DIR/header.d -o $t/p.o && readelf -WhSs $t/p.o | grep -E "Type:|Machine:|probes|GNU-stack|_semaphore"; rm -rf $t'
