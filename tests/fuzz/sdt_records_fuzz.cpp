// sdt_records_fuzz.cpp: libFuzzer target over what the sdt plugin reads from
// its BPF program's records: the live_record header, the copy of the
// tracepoint's record (integers, __data_loc and __rel_loc strings, arrays at
// the offsets a format file gives) or a packet's copied headers (ip, tcp and
// udp send and receive: decode_packet) and every stable probe's accept test
// and argument builder, then the translated records those arguments point to.
// The kernel writes these bytes, but a format file that disagrees with them
// must never crash dtrace: every input reads as something or as nothing.
#include <fuzzer/FuzzedDataProvider.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "probe_family.h"

namespace {

using namespace dtrace;

// The types the kernel's format files give fields, one per kind RawRecord reads.
constexpr const char *kFieldTypes[] = {
    "int",      "unsigned int", "long",     "u64",    "pid_t",        "bool",  "__data_loc char[]", "__rel_loc char[]",
    "char[16]", "__u8[4]",      "__u8[16]", "void *", "const char *", "dev_t", "unsigned short",
};

std::vector<const sdt::StableProbe *> all_rows() {
    std::vector<const sdt::StableProbe *> rows;
    for (std::span<const sdt::StableProbe> family : sdt::stable_families())
        for (const sdt::StableProbe &row : family)
            rows.push_back(&row);
    return rows;
}

// Reads what an argument points to, as the translators would.
void read_pointed(uint64_t address, sdt::RecordMemory &memory, sdt::OtherThread &other) {
    std::array<uint8_t, 256> buffer;
    if (sdt::RecordMemory::owns(address))
        (void)memory.read(address, buffer.data(), buffer.size());
    else if (sdt::OtherThread::owns(address))
        (void)other.read(address, buffer.data(), buffer.size());
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const std::vector<const sdt::StableProbe *> rows = all_rows();
    FuzzedDataProvider input(data, size);
    const sdt::StableProbe &row = *rows[input.ConsumeIntegralInRange<size_t>(0, rows.size() - 1)];

    // The row's fields, as a format file this input makes up describes them.
    std::vector<live::TracepointField> fields(row.fields.size());
    for (size_t i = 0; i < fields.size(); ++i) {
        fields[i].name = std::string(row.fields[i]);
        fields[i].type = input.PickValueInArray(kFieldTypes);
        fields[i].offset = input.ConsumeIntegralInRange<uint32_t>(0, 300);
        fields[i].size = input.ConsumeIntegralInRange<uint32_t>(0, 64);
        fields[i].is_signed = input.ConsumeBool();
    }
    std::vector<const live::TracepointField *> field_pointers;
    for (const live::TracepointField &field : fields)
        field_pointers.push_back(&field);

    live_record header{};
    const std::vector<uint8_t> header_bytes = input.ConsumeBytes<uint8_t>(sizeof header);
    if (!header_bytes.empty())
        std::memcpy(&header, header_bytes.data(), header_bytes.size());
    const std::vector<uint8_t> copy = input.ConsumeRemainingBytes<uint8_t>();
    const sdt::RawRecord raw(copy);
    for (const live::TracepointField *field : field_pointers)
        (void)raw.arg(*field);

    sdt::RecordMemory memory;
    sdt::OtherThread other;
    const sdt::ArgContext context{header, raw, field_pointers, memory, other};
    if (row.accept != nullptr && !row.accept(context))
        return 0;
    sdt::ProbeArgs args{};
    const size_t nargs = row.build != nullptr ? row.build(context, args) : 0;
    if (nargs > args.size())
        __builtin_trap(); // a builder wrote past the arguments
    for (size_t i = 0; i < nargs; ++i)
        read_pointed(args[i], memory, other);
    return 0;
}
