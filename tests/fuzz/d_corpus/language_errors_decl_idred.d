/* A variable declared twice with different types. */
int x;
string x;
