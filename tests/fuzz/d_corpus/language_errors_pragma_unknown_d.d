/* An unknown #pragma D. */
#pragma D nosuch
