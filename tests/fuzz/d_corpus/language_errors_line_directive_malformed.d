/* #line needs a line number. */
#line abc
