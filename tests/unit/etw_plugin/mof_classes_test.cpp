// mof_classes_test.cpp: kernel events decoded by the MOF table.
#include <gtest/gtest.h>

#include "byte_writer.h"
#include "kernel/context_switch.h"
#include "kernel/mof_classes.h"
#include "reader/kernel_groups.h"

namespace dtrace::etw::plugin::kernel {
namespace {

using fixture::Bytes;
using fixture::put;

Event kernel_event(uint16_t hook, uint8_t version, uint8_t pointer_size, const Bytes &payload) {
    Event e;
    e.kind = RecordKind::System;
    e.hook_id = hook;
    e.provider = kernel_class_guid(hook);
    e.opcode = static_cast<uint8_t>(hook);
    e.version = version;
    e.pointer_size = pointer_size;
    e.payload = payload;
    return e;
}

void put_pointer(Bytes &b, uint8_t pointer_size, uint64_t v) {
    if (pointer_size == 8) {
        put(b, v);
    } else {
        put(b, static_cast<uint32_t>(v));
    }
}

void put_wide(Bytes &b, std::u16string_view s) {
    for (char16_t c : s) {
        put(b, static_cast<uint16_t>(c));
    }
    put(b, uint16_t{0});
}

TEST(MofClasses, AnImageLoadIsOfTheImageClassThoughLoggedWithAProcessHook) {
    Event e = kernel_event(0x030A, 3, 8, {});
    EXPECT_EQ(kernel_class_of(e), static_cast<int>(KernelClass::Image));
    e.kind = RecordKind::EventHeader;
    EXPECT_EQ(kernel_class_of(e), kNotKernel);
}

TEST(MofClasses, PointerSizedFieldsMoveTheFieldsAfterThem) {
    for (uint8_t pointer_size : {uint8_t{4}, uint8_t{8}}) {
        Bytes p;
        put_pointer(p, pointer_size, 0x400000); // ImageBase
        put_pointer(p, pointer_size, 0x20000);  // ImageSize
        put(p, uint32_t{300});                  // ProcessId
        put(p, uint32_t{1});                    // ImageChecksum
        put(p, uint32_t{2});                    // TimeDateStamp
        put(p, uint32_t{0});                    // Reserved0
        put_pointer(p, pointer_size, 0x400000); // DefaultBase
        for (int i = 0; i < 4; ++i) {
            put(p, uint32_t{0});
        }
        put_wide(p, u"\\Windows\\a.dll");
        MofRecord r;
        ASSERT_TRUE(decode_mof(kernel_event(0x030A, 3, pointer_size, p), static_cast<int>(KernelClass::Image), r));
        EXPECT_EQ(r.u("ImageBase"), 0x400000u) << int(pointer_size);
        EXPECT_EQ(r.u("ImageSize"), 0x20000u);
        EXPECT_EQ(r.u("ProcessId"), 300u);
        EXPECT_EQ(r.s("FileName"), "\\Windows\\a.dll");
    }
}

TEST(MofClasses, FileIoVersionsPlaceTheThreadIdDifferently) {
    Bytes v2, v3;
    put(v2, uint64_t{0xA1}); // IrpPtr
    put(v2, uint64_t{301});  // TTID, a pointer in version 2
    put(v2, uint64_t{0xF1}); // FileObject
    put(v3, uint64_t{0xA1});
    put(v3, uint64_t{0xF1});
    put(v3, uint32_t{301});
    for (Bytes *b : {&v2, &v3}) {
        put(*b, uint32_t{0x60}); // CreateOptions
        put(*b, uint32_t{0x80}); // FileAttributes
        put(*b, uint32_t{3});    // ShareAccess
        put_wide(*b, u"x.txt");
    }
    for (auto [version, payload] : {std::pair{uint8_t{2}, &v2}, std::pair{uint8_t{3}, &v3}}) {
        MofRecord r;
        ASSERT_TRUE(decode_mof(kernel_event(0x0440, version, 8, *payload), static_cast<int>(KernelClass::FileIo), r));
        EXPECT_EQ(r.u("TTID"), 301u) << int(version);
        EXPECT_EQ(r.u("FileObject"), 0xF1u);
        EXPECT_EQ(r.u("ShareAccess"), 3u);
        EXPECT_EQ(r.s("OpenPath"), "x.txt");
    }
}

TEST(MofClasses, AddressesAndPortsInNetworkOrderBecomeText) {
    Bytes p;
    put(p, uint32_t{300});
    put(p, uint32_t{20});
    const uint8_t daddr[16] = {0xFE, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
    const uint8_t saddr[16] = {0x20, 0x01, 0x0D, 0xB8, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1};
    p.insert(p.end(), std::begin(daddr), std::end(daddr));
    p.insert(p.end(), std::begin(saddr), std::end(saddr));
    p.push_back(0x01); // dport 443
    p.push_back(0xBB);
    p.push_back(0x00); // sport 53
    p.push_back(0x35);
    put(p, uint32_t{7});
    put(p, uint64_t{0xC2});
    MofRecord r;
    ASSERT_TRUE(decode_mof(kernel_event(0x061B, 2, 8, p), static_cast<int>(KernelClass::TcpIp), r));
    EXPECT_EQ(r.s("daddr"), "fe80::1");
    EXPECT_EQ(r.s("saddr"), "2001:db8::1:0:0:1"); // the first of two longest zero runs
    EXPECT_EQ(r.u("dport"), 443u);
    EXPECT_EQ(r.u("sport"), 53u);
    EXPECT_EQ(r.u("connid"), 0xC2u);
}

TEST(MofClasses, AFieldPastAShorterPayloadIsAbsent) {
    Bytes p;
    put(p, uint64_t{0xB1}); // Irp; version 2 has no IssuingThreadId
    MofRecord r;
    ASSERT_TRUE(decode_mof(kernel_event(0x010C, 2, 8, p), static_cast<int>(KernelClass::DiskIo), r));
    EXPECT_TRUE(r.has("Irp"));
    EXPECT_FALSE(r.has("IssuingThreadId"));
    EXPECT_EQ(r.u("IssuingThreadId"), 0u);
    EXPECT_FALSE(decode_mof(kernel_event(0x01FF, 2, 8, p), static_cast<int>(KernelClass::DiskIo), r));
}

TEST(MofClasses, AFieldIdFindsItsFieldInEveryRowAsItsNameDoes) {
    const MofFieldId irp{"Irp"};
    const MofFieldId disk{"DiskNumber"};
    const MofFieldId unknown{"NoSuchField"};
    Bytes init; // ReadInit: Irp first
    put(init, uint64_t{0xB1});
    put(init, uint32_t{12});
    Bytes flush; // FlushBuffers: Irp after DiskNumber, IrpFlags and a u64
    put(flush, uint32_t{2});
    put(flush, uint32_t{0});
    put(flush, uint64_t{0});
    put(flush, uint64_t{0xB2});
    MofRecord r;
    ASSERT_TRUE(decode_mof(kernel_event(0x010C, 2, 8, init), static_cast<int>(KernelClass::DiskIo), r));
    EXPECT_EQ(r.u(irp), 0xB1u);
    EXPECT_FALSE(r.has(disk));
    ASSERT_TRUE(decode_mof(kernel_event(0x010E, 2, 8, flush), static_cast<int>(KernelClass::DiskIo), r));
    EXPECT_EQ(r.u(irp), 0xB2u);
    EXPECT_EQ(r.u(disk), 2u);
    EXPECT_EQ(r.u(irp), r.u("Irp"));
    EXPECT_FALSE(r.has(unknown));
    EXPECT_EQ(r.u(unknown), 0u);
    EXPECT_EQ(r.s(unknown), "");
}

TEST(MofClasses, SignedAndPointerSizedIntegersReadAtTheirLoggersOffsets) {
    for (uint8_t pointer_size : {uint8_t{4}, uint8_t{8}}) {
        Bytes p; // Thread Start v2: ProcessId, TThreadId, then pointers
        put(p, uint32_t{300});
        put(p, uint32_t{1204});
        for (int i = 0; i < 7; ++i) {
            put_pointer(p, pointer_size, 0x1000u * (i + 1)); // StackBase ... TebBase
        }
        put(p, uint32_t{5}); // SubProcessTag
        p.push_back(0xFE);   // BasePriority
        p.push_back(2);      // PagePriority
        MofRecord r;
        ASSERT_TRUE(decode_mof(kernel_event(0x0501, 2, pointer_size, p), static_cast<int>(KernelClass::Thread), r));
        EXPECT_EQ(r.u("TThreadId"), 1204u) << int(pointer_size);
        EXPECT_EQ(r.u("TebBase"), 0x7000u);
        EXPECT_EQ(r.u("BasePriority"), 0xFEu);
        EXPECT_EQ(r.u("PagePriority"), 2u);
        EXPECT_FALSE(r.has("IoPriority")) << "past the payload";
        EXPECT_EQ(r.s("TThreadId"), "") << "an integer has no text";
    }
    Bytes cswitch(24, 0);
    cswitch[8] = 0xF0; // NewThreadPriority, an i8
    MofRecord r;
    ASSERT_TRUE(decode_mof(kernel_event(0x0524, 2, 8, cswitch), static_cast<int>(KernelClass::Thread), r));
    EXPECT_EQ(r.i("NewThreadPriority"), -16);
}

TEST(MofClasses, AContextSwitchReadsAtFixedOffsetsWhatTheTableDecodes) {
    Bytes full(24);
    for (size_t i = 0; i < full.size(); ++i) {
        full[i] = static_cast<uint8_t>(0x81 + 7 * i); // distinct bytes, signed ones negative
    }
    for (uint8_t pointer_size : {uint8_t{4}, uint8_t{8}}) {
        for (int version = 0; version < 256; version += 51) {
            for (size_t size = 0; size <= full.size(); ++size) {
                const Bytes p(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(size));
                MofRecord r;
                ASSERT_TRUE(decode_mof(kernel_event(0x0524, static_cast<uint8_t>(version), pointer_size, p),
                                       static_cast<int>(KernelClass::Thread), r));
                const ContextSwitch c = decode_context_switch(p);
                const std::string at = "payload of " + std::to_string(size) + " bytes, version " +
                                       std::to_string(version) + ", pointer size " + std::to_string(pointer_size);
                EXPECT_EQ(c.new_thread, r.u("NewThreadId")) << at;
                EXPECT_EQ(c.old_thread, r.u("OldThreadId")) << at;
                EXPECT_EQ(c.new_priority, r.i("NewThreadPriority")) << at;
                EXPECT_EQ(c.old_priority, r.i("OldThreadPriority")) << at;
                EXPECT_EQ(c.old_wait_reason, r.i("OldThreadWaitReason")) << at;
                EXPECT_EQ(c.old_wait_mode, r.i("OldThreadWaitMode")) << at;
                EXPECT_EQ(c.old_state, r.i("OldThreadState")) << at;
                EXPECT_EQ(c.old_ideal_processor, r.i("OldThreadWaitIdealProcessor")) << at;
                EXPECT_EQ(c.new_wait_time, r.u("NewThreadWaitTime")) << at;
            }
        }
    }
    EXPECT_EQ(decode_context_switch(full).old_state, static_cast<int8_t>(0x81 + 7 * 14)) << "a negative i8 stays so";
}

} // namespace
} // namespace dtrace::etw::plugin::kernel
