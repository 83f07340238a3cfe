dtrace -q -L $DIR/lib -n 'BEGIN { this->p = (point_t *)alloca(sizeof (point_t)); this->p->y = answer; printf("%d %d %d\n", sizeof (point_t), this->p->y, answer); exit(0); }'
