/* #pragma D attributes with a stability name DTrace does not know. */
inline int foo = 1;
#pragma D attributes Stable/Solid/Common foo
