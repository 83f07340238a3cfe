/* An inline of a type its value does not convert to. */
inline int x = "str";
