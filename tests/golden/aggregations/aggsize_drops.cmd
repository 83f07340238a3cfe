dtrace -q -x aggsize=1000 -n 'BEGIN { @a[1] = count(); @a[2] = count(); @a[3] = count(); @a[4] = count(); @a[5] = count(); @a[6] = count(); @a[7] = count(); @a[8] = count(); exit(0); }'
