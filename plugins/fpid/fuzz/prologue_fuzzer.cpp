// prologue_fuzzer.cpp: libFuzzer target over the hook planner and relocator
// (hook/prologue.h), which read whatever bytes a program's file holds: any
// input is planned or refused, and a plan relocates or is refused, never
// reading or writing out of bounds.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "prologue.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2)
        return 0;
    // The first byte: how much of the rest is the function (the rest is room after it).
    const size_t function_size = data[0] % (size - 1) + 1;
    const uint8_t *code = data + 1;
    const uint64_t address = 0x555555554000ull;
    fpid_plan plan;
    if (fpid_plan_hook(code, function_size, size - 1, address, &plan) != 0)
        return 0;
    uint8_t out[128];
    char why[200];
    const uint64_t destinations[] = {address + 0x1000, address - 0x7fff0000ull, address + 0x100000000ull};
    for (uint64_t to : destinations)
        (void)fpid_relocate(code, &plan, address, to, out, sizeof out, why, sizeof why);
    return 0;
}
