/* trunc() keeps entries by what their sym() keys name: the three addresses
   in cv_wait are one entry (3), ahead of read's one address counted twice
   (2); trunc(@, 1) keeps cv_wait, trunc(@, -1) keeps read. */
int n;

stacks:test:deep:fire
/n == 0/
{
	@top[sym(arg1)] = count();
	@top[sym(arg1)] = count();
	@bottom[sym(arg1)] = count();
	@bottom[sym(arg1)] = count();
}

stacks:test:deep:fire,
stacks:test:shallow:fire
{
	@top[sym(arg0 + n)] = count();
	@bottom[sym(arg0 + n)] = count();
	n++;
}

stacks:test:empty:fire
{
	trunc(@top, 1);
	trunc(@bottom, -1);
	printa(@top);
	printa(@bottom);
	exit(0);
}
