/*
 * target_ctor_lib.c: a library whose constructor dlopens
 * libpid_target_lib.so (from its own folder) before the program that links
 * it reaches its entry point (see target_ctor_lib.h).
 */
#define _GNU_SOURCE
#include "target_ctor_lib.h"

#include "target_lib.h"

#include <dlfcn.h>
#include <limits.h>
#include <string.h>

static int (*loaded_work)(int);

__attribute__((constructor)) static void load_target_lib(void) {
    Dl_info self;
    char path[PATH_MAX];
    if (!dladdr((void *)load_target_lib, &self) || !self.dli_fname || strlen(self.dli_fname) >= sizeof path)
        return;
    strcpy(path, self.dli_fname);
    char *slash = strrchr(path, '/');
    if (!slash || (size_t)(slash - path) + 1 + sizeof TARGET_LIB_NAME > sizeof path)
        return;
    strcpy(slash + 1, TARGET_LIB_NAME);
    void *lib = dlopen(path, RTLD_NOW);
    if (lib)
        loaded_work = (int (*)(int))dlsym(lib, "lib_work");
}

long ctor_lib_work(long rounds) {
    if (!loaded_work)
        return -1;
    long sum = 0;
    for (long i = 0; i < rounds; i++)
        sum += loaded_work((int)i);
    return sum;
}
