/* An extern declared again with another type. */
extern int nevents_d;
extern long nevents_d;
