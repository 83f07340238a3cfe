/* %d of a narrow type prints its value, sign included. */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d %d\n", (char)-5, (short)-300, (int)-70000, (long)-5000000000);
	printf("%u %u %x\n", (unsigned char)250, (unsigned short)65000, (int)-1);
	exit(0);
}
