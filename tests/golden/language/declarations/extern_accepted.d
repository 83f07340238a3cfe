/*
 * extern declarations and function prototypes compile, as in DTrace: they
 * declare symbols of the D module, whatever their type, and may be repeated
 * with the same type. A static function prototype is an extern too.
 */
#pragma D option quiet

extern int getint(void);
extern int nevents_d;
extern int nevents_d;
extern char *names[4];
extern void (*handler)(int, ...);
static int helper(int);
int prototype_only(void *, char **);

BEGIN
{
	printf("compiled\n");
	exit(0);
}
