/* Without -C, a #define is an invalid control directive. */
#define X 1
