/* Translators produce structs or unions. */
translator int < int x > { a = x; };
