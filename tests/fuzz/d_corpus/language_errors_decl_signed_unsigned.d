/* signed and unsigned together. */
signed unsigned int x;
