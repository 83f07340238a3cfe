dtrace -x nspec=4294967295 -n 'BEGIN { exit(0); }'
