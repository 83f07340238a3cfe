// clr_methods_test.cpp: jitted method names from the CLR's method and module
// events.
#include <gtest/gtest.h>

#include "byte_writer.h"
#include "clr_methods.h"
#include "replay_traces.h"

namespace dtrace::etw::plugin {
namespace {

using fixture::Bytes;

const Guid &kRuntime = fixture::kDotNetRuntime;
const Guid &kRundown = fixture::kDotNetRundown;
constexpr uint32_t kPid = 4242;

Event clr_event(const Guid &provider, uint16_t id, const Bytes &payload) {
    Event e;
    e.kind = RecordKind::EventHeader;
    e.provider = provider;
    e.id = id;
    e.pid = kPid;
    e.payload = payload;
    return e;
}

TEST(ClrMethods, NamesAJittedMethodWithItsModule) {
    ClrMethods methods;
    const Bytes module = fixture::clr_module_payload(0x77, u"C:\\app\\Contoso.Shop.dll");
    const Bytes method = fixture::clr_method_payload(0x77, 0x7FF900010000, 0x80, u"Contoso.Shop.Cart", u"Checkout");
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
    const Bytes method = fixture::clr_method_payload(0x99, 0x5000, 0x10, u"", u"Main");
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
    const Bytes first = fixture::clr_method_payload(1, 0x5000, 0x100, u"A", u"Old");
    const Bytes second = fixture::clr_method_payload(1, 0x5080, 0x40, u"B", u"New");
    methods.note(clr_event(kRuntime, 143, first));
    methods.note(clr_event(kRuntime, 143, second));
    EXPECT_FALSE(methods.find(kPid, 0x5010).has_value());
    EXPECT_EQ(methods.find(kPid, 0x5090)->function, "B.New");
}

TEST(ClrMethods, IgnoresOtherEventsAndDamagedPayloads) {
    ClrMethods methods;
    const Bytes method = fixture::clr_method_payload(1, 0x5000, 0x100, u"A", u"M");
    methods.note(clr_event(*Guid::parse("22fb2cd6-0e7b-422b-a0c7-2fad1fd0e716"), 143, method));
    methods.note(clr_event(kRuntime, 145, method));
    Bytes cut(method.begin(), method.begin() + 40); // the name's NUL is missing
    methods.note(clr_event(kRuntime, 143, cut));
    EXPECT_FALSE(methods.find(kPid, 0x5000).has_value());
}

} // namespace
} // namespace dtrace::etw::plugin
