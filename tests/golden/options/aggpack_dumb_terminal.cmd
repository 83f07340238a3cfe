sh -c 'TERM=dumb dtrace -q -x aggpack -n "BEGIN { @a = quantize(1); @a = quantize(2); @a = quantize(2); exit(0); }"'
