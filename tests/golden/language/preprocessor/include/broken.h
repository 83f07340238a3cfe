/* A header with a D error on its third line. */

int x = 1;
