/* #pragma D option without an option. */
#pragma D option
