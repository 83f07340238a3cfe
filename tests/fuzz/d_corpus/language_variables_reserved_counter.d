/* counter is a reserved word in D. */
int counter;
