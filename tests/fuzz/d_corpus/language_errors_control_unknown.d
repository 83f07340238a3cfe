/* An unknown control directive. */
#nosuch
