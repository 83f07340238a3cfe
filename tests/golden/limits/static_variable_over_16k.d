/*
 * A global variable of one byte more than 16 KB: DTrace's kernel refuses
 * the program's DIF when it is enabled.
 */
char big[16385];

BEGIN
{
	big[0] = 1;
	exit(0);
}
