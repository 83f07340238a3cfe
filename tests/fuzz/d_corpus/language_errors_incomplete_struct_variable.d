/* A variable of an incomplete struct type. */
struct nosuch x;
