/* An inline defined twice. */
inline int x = 1;
inline int x = 2;
