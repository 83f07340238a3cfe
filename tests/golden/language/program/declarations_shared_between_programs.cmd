dtrace -q -s declarations_shared_between_programs.d -n 'BEGIN { v = (myint_t)3; printf("%d %d %s\n", v + TWICE, sizeof (struct pair), counted[1]); exit(0); }'
