/* A non-integer operand used as $1 needs $$1. */
BEGIN
{
	trace($1);
}
