/* Sizes of the C integer types and of DTrace's fixed-width typedefs (LP64). */
#pragma D option quiet

BEGIN
{
	printf("char %d short %d int %d long %d long long %d\n", sizeof (char),
	    sizeof (short), sizeof (int), sizeof (long), sizeof (long long));
	printf("int8_t %d int16_t %d int32_t %d int64_t %d\n", sizeof (int8_t),
	    sizeof (int16_t), sizeof (int32_t), sizeof (int64_t));
	printf("uint8_t %d uint16_t %d uint32_t %d uint64_t %d\n",
	    sizeof (uint8_t), sizeof (uint16_t), sizeof (uint32_t),
	    sizeof (uint64_t));
	printf("size_t %d ssize_t %d uintptr_t %d intptr_t %d ptrdiff_t %d\n",
	    sizeof (size_t), sizeof (ssize_t), sizeof (uintptr_t),
	    sizeof (intptr_t), sizeof (ptrdiff_t));
	printf("uint_t %d ulong_t %d uchar_t %d ushort_t %d\n", sizeof (uint_t),
	    sizeof (ulong_t), sizeof (uchar_t), sizeof (ushort_t));
	printf("void * %d char * %d string %d\n", sizeof (void *),
	    sizeof (char *), sizeof (string));
	exit(0);
}
