/* %S prints a string with C escapes for what is not printable. */
#pragma D option quiet

BEGIN
{
	this->s = "tab\there \"quoted\" back\\slash bell\a esc\033 del\177";
	printf("[%S]\n", this->s);
	exit(0);
}
