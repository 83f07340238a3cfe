/* A function prototype names no D function: calling it fails. */
extern int getint(void);

BEGIN
{
	trace(getint());
}
