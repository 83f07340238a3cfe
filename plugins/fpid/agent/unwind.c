/*
 * unwind.c: the agent's guards on the unwinder, so that an exception (C++,
 * Rust panics, pthread_cancel's forced unwind) can pass through functions
 * whose return address a return hook replaced (hits.c, fpid_on_unwind).
 *
 * The functions that start or resume an unwind, and libstdc++'s
 * __cxa_begin_catch (a handler caught it), are hooked for the agent itself
 * when a return is hooked, in whichever library of the process defines them
 * (libgcc_s, libstdc++). A library that defines them loaded after the agent
 * is not guarded (README).
 */
#define _GNU_SOURCE
#include "agent.h"

#include <dlfcn.h>
#include <link.h>

static const struct {
    const char *name;
    uint32_t what;
} kGuards[] = {
    {"_Unwind_RaiseException", FPID_UNWIND_START}, {"_Unwind_Resume_or_Rethrow", FPID_UNWIND_START},
    {"_Unwind_ForcedUnwind", FPID_UNWIND_START},   {"_Unwind_Resume", FPID_UNWIND_START},
    {"__cxa_begin_catch", FPID_UNWIND_CATCH},
};

/* Whether the table hooks the function at `address` already (a probe on it):
 * its bytes are then not the function's own. */
static int hooked(uint64_t address) {
    for (uint32_t i = 0; i < fpid_shm->nhooks; i++)
        if (fpid_shm->hooks[i].address == address)
            return 1;
    return 0;
}

void fpid_guard_unwinder(void) {
    for (size_t i = 0; i < sizeof kGuards / sizeof kGuards[0]; i++) {
        void *function = dlsym(RTLD_DEFAULT, kGuards[i].name);
        Dl_info info;
        const ElfW(Sym) *symbol = NULL;
        if (function == NULL || dladdr1(function, &info, (void **)&symbol, RTLD_DL_SYMENT) == 0 || symbol == NULL ||
            symbol->st_size == 0 || hooked((uint64_t)function))
            continue;
        fpid_patch_guard((uint64_t)function, symbol->st_size, fpid_on_unwind, kGuards[i].what);
    }
}
