#!/bin/sh
# A preprocessor wrapper: cpp with one more definition.
exec cpp -DFROM_WRAPPER=7 "$@"
