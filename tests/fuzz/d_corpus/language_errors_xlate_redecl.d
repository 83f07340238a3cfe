/* Two translators for the same types. */
typedef struct info { int a; } info_t;
translator info_t < int x > { a = x; };
translator info_t < int y > { a = y; };
