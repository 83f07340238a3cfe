/* long char is not a type. */
long char c;
