/*
 * The programs of one run share their declarations: the -n program after
 * this script uses its typedef, struct, inline and associative array.
 */
typedef int myint_t;
struct pair { int first; int second; };
inline int TWICE = 2 * 2;
string counted[int];
