/* A missing header fails the preprocessor. */
#pragma D option quiet

#include "include/nosuch.h"
