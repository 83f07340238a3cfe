/* An empty value (or "no", "false", "off"...) unsets a flag. */
#pragma D option quiet
#pragma D option aggsortrev

BEGIN
{
	@a["x"] = sum(1);
	@a["y"] = sum(2);
	printa(@a);
	setopt("aggsortrev", "no");
	printa(@a);
	exit(0);
}
