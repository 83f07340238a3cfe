/* A typedef of a name already defined differently. */
typedef int t;
typedef char t;
