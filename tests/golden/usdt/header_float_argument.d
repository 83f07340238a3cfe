/* dtrace -h: a floating-point argument cannot travel in a USDT note (a register or constant operand). */
provider geo {
	probe moved(int, double);
};
