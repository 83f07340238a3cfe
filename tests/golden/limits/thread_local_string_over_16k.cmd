dtrace -q -x strsize=20000 -n 'BEGIN { self->s = "thread-local strings are dynamic variables: no 16 KB limit"; printf("%s\n", self->s); exit(0); }'
