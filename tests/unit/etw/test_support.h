// test_support.h: helpers shared by the ETL reader tests.
//
// Events hand out spans into the reader's current buffer, valid only until
// the next call; tests that look at a whole trace keep owned copies.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "byte_writer.h"
#include "reader/etl_reader.h"

namespace dtrace::etw::test {

using fixture::Bytes;

struct OwnedEvent {
    Event event; // spans cleared
    Bytes record;
    Bytes payload;
    Bytes extended;
};

Result<EtlReader> open_bytes(Bytes bytes, const ReaderOptions &options = {});
std::vector<OwnedEvent> read_all(EtlReader &reader);
// Opens (must succeed) and reads everything.
std::vector<OwnedEvent> read_bytes(Bytes bytes, const ReaderOptions &options = {});
uint64_t payload_u64(const OwnedEvent &e);

} // namespace dtrace::etw::test
