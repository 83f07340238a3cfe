/* json() of true, false and null gives the word. */
#pragma D option quiet

BEGIN
{
	printf("%s %s %s\n", json("{\"t\": true, \"f\": false, \"z\": null}", "t"), json("{\"t\": true, \"f\": false, \"z\": null}", "f"), json("{\"t\": true, \"f\": false, \"z\": null}", "z"));
	exit(0);
}
