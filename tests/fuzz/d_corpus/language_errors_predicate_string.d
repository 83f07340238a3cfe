/* A predicate must be a scalar, not a string. */
BEGIN
/"abc"/
{
}
