dtrace -q -x nspec=1000000 -n 'BEGIN { s = speculation(); } BEGIN { speculate(s); printf("spec %d\n", s); } BEGIN { commit(s); } BEGIN { exit(0); }'
