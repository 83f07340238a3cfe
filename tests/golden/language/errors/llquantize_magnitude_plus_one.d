/*
 * llquantize()'s last bucket ends at factor raised to the high magnitude
 * plus 1, which must fit 64 bits too: 10^19 does, so high magnitude 18
 * (whose buckets would end at 10^20) is refused at compile time.
 */
BEGIN
{
	@ = llquantize(1, 10, 0, 18, 10);
}
