dtrace -q -x switchrate=10hz -x statusrate=10hz -x nspec=1 -n 'BEGIN { a = speculation(); b = speculation(); printf("%d %d\n", a, b); exit(0); }'
