// process_table_test.cpp: execname and ppid from Process events of each version.
#include <gtest/gtest.h>

#include <string_view>
#include <vector>

#include "byte_writer.h"
#include "process_table.h"
#include "reader/kernel_groups.h"

namespace dtrace::etw::plugin {
namespace {

using fixture::Bytes;
using fixture::put;

constexpr uint16_t kProcessHook = 0x0300;
constexpr uint8_t kStart = 1;
constexpr uint8_t kEnd = 2;
constexpr uint8_t kDcStart = 3;

struct ProcessPayload {
    uint8_t version = 4;
    uint8_t pointer_size = 8;
    uint32_t pid = 0;
    uint32_t ppid = 0;
    bool with_sid = false;
    std::string_view image;
};

Bytes encode(const ProcessPayload &p) {
    Bytes b;
    auto pointer = [&](uint64_t v) {
        if (p.pointer_size == 8) {
            put(b, v);
        } else {
            put(b, static_cast<uint32_t>(v));
        }
    };
    pointer(0x1234); // UniqueProcessKey
    put(b, p.pid);
    put(b, p.ppid);
    put(b, uint32_t{1}); // SessionId
    put(b, uint32_t{0}); // ExitStatus
    if (p.version >= 3) {
        pointer(0x1AB000); // DirectoryTableBase
    }
    if (p.version >= 4) {
        put(b, uint32_t{0}); // Flags
    }
    if (p.with_sid) {
        pointer(0xFFFF0000); // TOKEN_USER: Sid pointer, Attributes
        pointer(0);
        const uint8_t sid[] = {1, 2, 0, 0, 0, 0, 0, 5, 21, 0, 0, 0, 7, 0, 0, 0}; // S-1-5-21-7
        b.insert(b.end(), std::begin(sid), std::end(sid));
    } else {
        put(b, uint32_t{0});
    }
    b.insert(b.end(), p.image.begin(), p.image.end());
    b.push_back(0);
    put(b, uint16_t{0}); // empty CommandLine
    return b;
}

Event process_event(uint8_t opcode, const ProcessPayload &p, const Bytes &payload) {
    Event e;
    e.provider = kernel_class_guid(kProcessHook | opcode);
    e.opcode = opcode;
    e.hook_id = kProcessHook | opcode;
    e.version = p.version;
    e.pointer_size = p.pointer_size;
    e.payload = payload;
    return e;
}

TEST(ProcessTable, Version4RundownNamesTheProcess) {
    ProcessPayload p{.pid = 100, .ppid = 4, .image = "app.exe"};
    Bytes payload = encode(p);
    ProcessTable table;
    table.note(process_event(kDcStart, p, payload));
    const ProcessInfo *info = table.find(100);
    ASSERT_NE(info, nullptr);
    EXPECT_EQ(info->execname, "app.exe");
    EXPECT_EQ(info->ppid, 4);
    EXPECT_EQ(table.find(4), nullptr);
}

TEST(ProcessTable, Version2With32BitPointersAndASid) {
    ProcessPayload p{.version = 2, .pointer_size = 4, .pid = 300, .ppid = 200, .with_sid = true, .image = "x86.exe"};
    Bytes payload = encode(p);
    ProcessTable table;
    table.note(process_event(kStart, p, payload));
    ASSERT_NE(table.find(300), nullptr);
    EXPECT_EQ(table.find(300)->execname, "x86.exe");
    EXPECT_EQ(table.find(300)->ppid, 200);
}

TEST(ProcessTable, Version3With64BitPointersAndASid) {
    ProcessPayload p{.version = 3, .pid = 7, .ppid = 6, .with_sid = true, .image = "svc.exe"};
    Bytes payload = encode(p);
    ProcessTable table;
    table.note(process_event(kStart, p, payload));
    ASSERT_NE(table.find(7), nullptr);
    EXPECT_EQ(table.find(7)->execname, "svc.exe");
}

TEST(ProcessTable, AReusedPidTakesTheNewName) {
    ProcessPayload first{.pid = 100, .ppid = 4, .image = "old.exe"};
    ProcessPayload second{.pid = 100, .ppid = 8, .image = "new.exe"};
    Bytes a = encode(first), b = encode(second);
    ProcessTable table;
    table.note(process_event(kDcStart, first, a));
    table.note(process_event(kEnd, first, a)); // an ended process keeps its name
    EXPECT_EQ(table.find(100)->execname, "old.exe");
    table.note(process_event(kStart, second, b));
    EXPECT_EQ(table.find(100)->execname, "new.exe");
    EXPECT_EQ(table.find(100)->ppid, 8);
}

TEST(ProcessTable, IgnoresOtherEventsAndShortPayloads) {
    ProcessPayload p{.pid = 100, .ppid = 4, .image = "app.exe"};
    Bytes payload = encode(p);
    ProcessTable table;
    Event thread = process_event(kStart, p, payload);
    thread.provider = kernel_class_guid(0x0501); // Thread/Start
    thread.hook_id = 0x0501;
    table.note(thread);
    EXPECT_EQ(table.find(100), nullptr);
    for (size_t cut : {size_t{0}, size_t{10}, size_t{36}, size_t{40}}) {
        Bytes shorter(payload.begin(), payload.begin() + static_cast<std::ptrdiff_t>(cut));
        table.note(process_event(kStart, p, shorter));
        EXPECT_EQ(table.find(100), nullptr) << cut;
    }
}

TEST(ProcessTable, ASidRunningPastThePayloadIsIgnored) {
    ProcessPayload p{.pid = 5, .ppid = 4, .with_sid = true, .image = "a.exe"};
    Bytes payload = encode(p);
    payload.resize(8 + 16 + 8 + 4 + 16 + 4); // into the SID
    ProcessTable table;
    table.note(process_event(kStart, p, payload));
    EXPECT_EQ(table.find(5), nullptr);
}

} // namespace
} // namespace dtrace::etw::plugin
