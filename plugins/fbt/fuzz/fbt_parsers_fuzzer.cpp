// fbt_parsers_fuzzer.cpp: libFuzzer target over the fbt plugin's parsers of
// kernel-supplied text and binary (the function lists, the kprobe
// blacklist, kallsyms lookups, the BTF type-header walk). The first byte
// picks the parser; the rest is its input.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "btf_type_names.h"
#include "function_catalog.h"
#include "kernel_symbol_table.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0)
        return 0;
    const std::string_view text(reinterpret_cast<const char *>(data) + 1, size - 1);
    switch (data[0] % 5) {
    case 0: {
        auto functions = dtrace::fbt::parse_filter_functions(text);
        dtrace::fbt::sort_unique(functions);
        break;
    }
    case 1:
        dtrace::fbt::parse_kallsyms_functions(text);
        break;
    case 2: {
        auto functions = dtrace::fbt::parse_kallsyms_functions(text);
        dtrace::fbt::remove_blacklisted(functions, dtrace::fbt::parse_blacklist(text));
        break;
    }
    case 3:
        dtrace::fbt::find_kallsyms(text, "", "jiffies");
        dtrace::fbt::find_kallsyms(text, "mod", "a");
        break;
    case 4: {
        dtrace::fbt::BtfTypeNames names("/nonexistent");
        names.load_from(std::vector<char>(text.begin(), text.end()));
        names.may_name_type("size_t");
        break;
    }
    }
    return 0;
}
