/* Names a library no -L directory holds. */
#pragma D depends_on library missing.d
