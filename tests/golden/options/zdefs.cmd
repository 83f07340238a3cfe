dtrace -x zdefs -n 'nosuch:::probe' -n 'BEGIN { exit(0); }'
