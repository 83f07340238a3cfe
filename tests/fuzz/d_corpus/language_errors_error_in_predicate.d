/* An error in a predicate names the predicate's line. */
BEGIN
/nosuch > 0/
{
}
