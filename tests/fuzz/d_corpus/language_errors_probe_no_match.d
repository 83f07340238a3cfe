/* A probe description that matches nothing. */
nosuchprovider:::nosuchprobe
{
}
