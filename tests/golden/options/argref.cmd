dtrace -x argref -q -n 'BEGIN { exit(0); }' one two
