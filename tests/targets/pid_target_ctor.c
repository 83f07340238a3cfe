/*
 * pid_target_ctor.c: `pid_target_ctor N` calls lib_work N times in
 * libpid_target_lib.so, which the constructor of a library it links
 * (target_ctor_lib.c) dlopened before main; exit status 1 when that
 * library could not be loaded.
 */
#include "target_ctor_lib.h"

#include <stdlib.h>

int main(int argc, char **argv) {
    return ctor_lib_work(argc > 1 ? strtol(argv[1], NULL, 10) : 0) < 0;
}
