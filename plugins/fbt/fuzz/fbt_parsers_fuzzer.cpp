// fbt_parsers_fuzzer.cpp: libFuzzer target over the fbt plugin's parsers of
// kernel-supplied text and binary (the function lists, the kprobe
// blacklist, kallsyms lookups, the BTF type-header walk, /proc/modules,
// function extents from kallsyms, a function's code decoded for its return,
// the fetched memory of a record). The first byte picks the parser; the
// rest is its input.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <vector>

#include "btf_type_names.h"
#include "event_memory.h"
#include "function_catalog.h"
#include "kernel_symbol_table.h"
#include "module_watcher.h"
#include "return_offset.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0)
        return 0;
    const std::string_view text(reinterpret_cast<const char *>(data) + 1, size - 1);
    switch (data[0] % 9) {
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
    case 5:
        dtrace::fbt::parse_module_names(text);
        break;
    case 6: {
        dtrace::fbt::ReturnOffsets offsets([](uint64_t, void *, size_t) { return int64_t(-1); }, "/nonexistent");
        offsets.load_from(text);
        offsets.extent("vmlinux", "vfs_read");
        offsets.extent("mod", "a");
        break;
    }
    case 7:
        dtrace::fbt::single_return_offset(std::span(data + 1, size - 1), 0xffffffff81000000ull);
        break;
    case 8: {
        // Two fetches from the input, their bytes the rest of it.
        live_fetched fetched[2] = {};
        const size_t header = std::min(sizeof fetched, size - 1);
        std::memcpy(fetched, data + 1, header);
        const dtrace::fbt::EventMemory memory(fetched, std::span(data + 1 + header, size - 1 - header));
        uint8_t buffer[64];
        for (const live_fetched &f : fetched)
            for (uint64_t delta : {0, 3})
                memory.read(f.address + delta, buffer, sizeof buffer);
        break;
    }
    }
    return 0;
}
