dtrace -n 'nosuch:::probe /args[1] == 0/ { trace(args[0]); }'
