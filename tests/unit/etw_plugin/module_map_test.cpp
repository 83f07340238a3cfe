// module_map_test.cpp: addresses to the images the trace's Image events placed.
#include <gtest/gtest.h>

#include "byte_writer.h"
#include "kernel/module_map.h"
#include "reader/kernel_groups.h"

namespace dtrace::etw::plugin::kernel {
namespace {

using fixture::Bytes;
using fixture::put;

// An Image event (version 1: base, size, pid, name) decoded by the MOF table.
void note(ModuleMap &map, uint64_t base, uint64_t size, uint32_t pid, std::u16string_view name) {
    Bytes p;
    put(p, base);
    put(p, size);
    put(p, pid);
    for (char16_t c : name) {
        put(p, static_cast<uint16_t>(c));
    }
    put(p, uint16_t{0});
    Event e;
    e.hook_id = 0x1403; // Image/DCStart
    e.provider = kernel_class_guid(e.hook_id);
    e.opcode = 3;
    e.version = 1;
    e.payload = p;
    MofRecord r;
    ASSERT_TRUE(decode_mof(e, static_cast<int>(KernelClass::Image), r));
    map.note(e, r);
}

TEST(ModuleMap, NamesAnAddressByItsImageAndOffsetPerProcess) {
    ModuleMap map;
    note(map, 0xFFFFF80000000000, 0x800000, 0, u"\\SystemRoot\\system32\\ntoskrnl.exe");
    note(map, 0x7FF600000000, 0x20000, 300, u"\\Device\\HarddiskVolume2\\tools\\child.exe");
    std::optional<ModuleHit> hit = map.find(300, 0x7FF600001234);
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->module, "child.exe");
    EXPECT_EQ(hit->offset, 0x1234u);
    EXPECT_FALSE(map.find(301, 0x7FF600001234)); // another process
    EXPECT_FALSE(map.find(300, 0x7FF600020000)); // just past the image
    hit = map.find(kUnknownId, 0xFFFFF80000001000);
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->module, "ntoskrnl.exe");
    EXPECT_EQ(map.find(300, 0xFFFFF80000001000)->module, "ntoskrnl.exe"); // the kernel, from any process
}

TEST(ModuleMap, AnImageMappedOverAnotherReplacesIt) {
    ModuleMap map;
    note(map, 0x10000, 0x10000, 7, u"a.dll");
    note(map, 0x18000, 0x10000, 7, u"b.dll");
    EXPECT_FALSE(map.find(7, 0x10000));
    EXPECT_EQ(map.find(7, 0x18000)->module, "b.dll");
}

} // namespace
} // namespace dtrace::etw::plugin::kernel
