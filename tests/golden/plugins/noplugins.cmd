dtrace -x noplugins -l -P profile -n BEGIN
