/* #pragma D binding with a version string that is not major.minor.micro. */
inline int foo = 1;
#pragma D binding "1.0.x" foo
