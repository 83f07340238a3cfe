/* args[] only has a meaning inside a probe clause. */
inline int FIRST = args[0];
