/* A clause-local set before an if is seen inside it. */
#pragma D option quiet

BEGIN
{
	this->v = 5;
	if (this->v > 1)
		printf("%d\n", this->v);
	exit(0);
}
