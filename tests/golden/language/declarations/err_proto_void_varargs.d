/* void and ... are two parameters: void must be alone. */
int f(void, ...);
