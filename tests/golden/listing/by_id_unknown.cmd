dtrace -x noplugins -i 999 -n BEGIN
