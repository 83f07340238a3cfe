// usdt_notes_fuzz.cpp: libFuzzer target for the USDT plugin's readers of
// what programs carry: a `.note.stapsdt` section's notes and their argument
// specs, a `.dtrace_usdt_types` table, and, for input that starts as an ELF file does, the whole file
// through libelf (sections, segments, PT_INTERP) as read_probe_sites reads
// a process's executable.
#include "arg_spec.h"
#include "stapsdt_notes.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <sys/mman.h>
#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    using namespace dtrace::usdt;
    for (const StapsdtNote &note : parse_stapsdt_notes({data, size}))
        (void)parse_arg_specs(note.args);
    (void)parse_arg_specs(std::string_view(reinterpret_cast<const char *>(data), size));
    (void)parse_definition_types(std::string_view(reinterpret_cast<const char *>(data), size));
    if (size >= 4 && std::memcmp(data, "\177ELF", 4) == 0) {
        const int fd = memfd_create("usdt_fuzz", MFD_CLOEXEC);
        if (fd >= 0) {
            if (write(fd, data, size) == static_cast<ssize_t>(size))
                (void)read_probe_sites("/proc/self/fd/" + std::to_string(fd));
            close(fd);
        }
    }
    return 0;
}
