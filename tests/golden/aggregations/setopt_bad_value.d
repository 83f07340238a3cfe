#pragma D option quiet

BEGIN
{
	setopt("aggsortkeypos", "first");
	exit(0);
}
