/* Compiled after b_types.d, which it depends on, although it sorts first. */
#pragma D depends_on library b_types.d

inline int answer = 42;

/* A pragma inside a comment is not read:
#pragma D depends_on library commented_out.d
*/
