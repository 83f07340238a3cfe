/* A member declared twice in one struct. */
struct s { int a; int a; };
