/* #pragma error stops the compilation with its words. */
#pragma error this script is not ready
