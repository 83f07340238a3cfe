/* An extern declaration names a symbol no plugin provides. */
extern int nosuch_symbol;
