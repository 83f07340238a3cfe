/* #error fails the preprocessor: dtrace reports it. */
#pragma D option quiet

#error stop here
