// clr_methods_test.cpp: jitted method names from the CLR's method and module
// events.
#include <gtest/gtest.h>

#include "byte_writer.h"
#include "clr_methods.h"

namespace dtrace::etw::plugin {
namespace {

using fixture::Bytes;
using fixture::put;

const Guid kRuntime = *Guid::parse("e13c0d23-ccbc-4e12-931b-d9cc2eee27e4");
const Guid kRundown = *Guid::parse("a669021c-c450-4609-a035-5af59af4df18");
constexpr uint32_t kPid = 4242;

void put_wide(Bytes &out, std::u16string_view text) {
    for (char16_t c : text) {
        put(out, static_cast<uint16_t>(c));
    }
    put(out, uint16_t{0});
}

Event clr_event(const Guid &provider, uint16_t id, const Bytes &payload) {
    Event e;
    e.kind = RecordKind::EventHeader;
    e.provider = provider;
    e.id = id;
    e.pid = kPid;
    e.payload = payload;
    return e;
}

Bytes method_payload(uint64_t module_id, uint64_t start, uint32_t size, std::u16string_view space,
                     std::u16string_view name) {
    Bytes p;
    put(p, uint64_t{0x1000}); // MethodID
    put(p, module_id);
    put(p, start);
    put(p, size);
    put(p, uint32_t{0x06000001}); // MethodToken
    put(p, uint32_t{0});          // MethodFlags
    put_wide(p, space);
    put_wide(p, name);
    put_wide(p, u"void  ()"); // MethodSignature
    put(p, uint16_t{8});      // ClrInstanceID (version 1)
    return p;
}

Bytes module_payload(uint64_t module_id, std::u16string_view il_path) {
    Bytes p;
    put(p, module_id);
    put(p, uint64_t{0x2000}); // AssemblyID
    put(p, uint32_t{0});      // ModuleFlags
    put(p, uint32_t{0});      // Reserved1
    put_wide(p, il_path);
    put_wide(p, u"");
    return p;
}

TEST(ClrMethods, NamesAJittedMethodWithItsModule) {
    ClrMethods methods;
    const Bytes module = module_payload(0x77, u"C:\\app\\Contoso.Shop.dll");
    const Bytes method = method_payload(0x77, 0x7FF900010000, 0x80, u"Contoso.Shop.Cart", u"Checkout");
    methods.note(clr_event(kRuntime, 152, module));
    methods.note(clr_event(kRuntime, 143, method));

    const std::optional<MethodHit> hit = methods.find(kPid, 0x7FF900010024);
    ASSERT_TRUE(hit.has_value());
    EXPECT_EQ(hit->module, "Contoso.Shop.dll");
    EXPECT_EQ(hit->function, "Contoso.Shop.Cart.Checkout");
    EXPECT_EQ(hit->offset, 0x24u);
    EXPECT_FALSE(methods.find(kPid, 0x7FF900010080).has_value()); // one past the method's end
    EXPECT_FALSE(methods.find(kPid + 1, 0x7FF900010024).has_value());
}

TEST(ClrMethods, ReadsTheRundownAndKeepsUnloadedMethods) {
    ClrMethods methods;
    const Bytes method = method_payload(0x99, 0x5000, 0x10, u"", u"Main");
    methods.note(clr_event(kRundown, 144, method)); // MethodDCEndVerbose
    methods.note(clr_event(kRuntime, 144, method)); // MethodUnloadVerbose
    const std::optional<MethodHit> hit = methods.find(kPid, 0x5000);
    ASSERT_TRUE(hit.has_value());
    EXPECT_EQ(hit->module, "?"); // no module event named 0x99
    EXPECT_EQ(hit->function, "Main");
    EXPECT_EQ(hit->offset, 0u);
}

TEST(ClrMethods, CodePlacedOverAMethodReplacesIt) {
    ClrMethods methods;
    const Bytes first = method_payload(1, 0x5000, 0x100, u"A", u"Old");
    const Bytes second = method_payload(1, 0x5080, 0x40, u"B", u"New");
    methods.note(clr_event(kRuntime, 143, first));
    methods.note(clr_event(kRuntime, 143, second));
    EXPECT_FALSE(methods.find(kPid, 0x5010).has_value());
    EXPECT_EQ(methods.find(kPid, 0x5090)->function, "B.New");
}

TEST(ClrMethods, IgnoresOtherEventsAndDamagedPayloads) {
    ClrMethods methods;
    const Bytes method = method_payload(1, 0x5000, 0x100, u"A", u"M");
    methods.note(clr_event(*Guid::parse("22fb2cd6-0e7b-422b-a0c7-2fad1fd0e716"), 143, method));
    methods.note(clr_event(kRuntime, 145, method));
    Bytes cut(method.begin(), method.begin() + 40); // the name's NUL is missing
    methods.note(clr_event(kRuntime, 143, cut));
    EXPECT_FALSE(methods.find(kPid, 0x5000).has_value());
}

} // namespace
} // namespace dtrace::etw::plugin
