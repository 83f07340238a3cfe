// byte_writer.h: little-endian appends and patches for building ETL files.
//
// The fixture writer lays out ETL buffers, records and ZIP archives byte by
// byte, often writing a field after the data it describes (sizes, CRCs), so
// it needs both "append a field" and "overwrite a field at an offset".
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "reader/guid.h"

namespace dtrace::etw::writer {

using Bytes = std::vector<uint8_t>;

template <typename T> void put_at(Bytes &out, size_t at, T value) {
    for (size_t i = 0; i < sizeof(T); ++i) {
        out[at + i] = static_cast<uint8_t>(static_cast<uint64_t>(value) >> (8 * i));
    }
}

template <typename T> void put(Bytes &out, T value) {
    out.resize(out.size() + sizeof(T));
    put_at(out, out.size() - sizeof(T), value);
}

inline void put_guid_at(Bytes &out, size_t at, const Guid &guid) {
    guid.to_bytes(out.data() + at);
}

inline void append(Bytes &out, std::span<const uint8_t> bytes) {
    out.insert(out.end(), bytes.begin(), bytes.end());
}

} // namespace dtrace::etw::writer
