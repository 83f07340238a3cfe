/*
 * NULL with strings, as DTrace's string (an array of char) allows: compared
 * with == and != in either order, assigned to global, thread-local,
 * clause-local and associative-array strings. A string compares as
 * characters, so the empty string equals NULL too.
 */
#pragma D option quiet

string g;

BEGIN
{
	printf("unset global: %d %d\n", g == NULL, g != NULL);
	g = "set";
	printf("set global: %d %d %d\n", g == NULL, g != NULL, NULL == g);
	g = NULL;
	printf("global = NULL: %d\n", g == NULL);

	self->s = "thread";
	printf("thread-local: %d", self->s != NULL);
	self->s = NULL;
	printf(" %d\n", self->s == NULL);

	this->s = "clause";
	printf("clause-local: %d", this->s != NULL);
	this->s = NULL;
	printf(" %d\n", this->s == NULL);

	names["a"] = "alpha";
	names["a"] = NULL;
	printf("array: %d %d\n", names["a"] == NULL, names["never"] == NULL);

	this->empty = "";
	printf("empty string: %d\n", this->empty == NULL);
	printf("strchr miss: %d\n", strchr("abc", 'x') == NULL);
	printf("ternary: %s\n", 1 ? "left" : NULL);
	exit(0);
}
