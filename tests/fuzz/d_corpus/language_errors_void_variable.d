/* A variable of type void. */
void v;
