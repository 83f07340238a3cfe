dtrace -n 'nosuch:::x {}'
