/* A probe description with five fields. */
a:b:c:d:e
{
}
