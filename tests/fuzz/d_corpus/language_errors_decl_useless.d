/* A declaration that declares nothing. */
int;
