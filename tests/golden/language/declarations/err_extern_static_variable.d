/* static declares nothing in D but a function prototype. */
static int nevents_d;
