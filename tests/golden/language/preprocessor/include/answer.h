/* A header for the -C tests. */
#define HEADER_ANSWER 99
