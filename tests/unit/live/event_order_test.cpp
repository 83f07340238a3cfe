// event_order_test.cpp: ring records handed on in timestamp order.
#include <gtest/gtest.h>

#include <cstring>

#include "event_order.h"

namespace dtrace::live {
namespace {

std::vector<uint8_t> record(uint64_t timestamp, size_t size) {
    std::vector<uint8_t> r(size, static_cast<uint8_t>(timestamp));
    std::memcpy(r.data(), &timestamp, sizeof timestamp);
    return r;
}

std::vector<uint64_t> release(EventOrder &order, uint64_t horizon) {
    std::vector<uint64_t> seen;
    order.release_until(horizon, [&](std::span<const uint8_t> bytes) {
        uint64_t t;
        std::memcpy(&t, bytes.data(), sizeof t);
        EXPECT_EQ(bytes.back(), static_cast<uint8_t>(t)) << "record bytes intact";
        seen.push_back(t);
    });
    return seen;
}

TEST(EventOrder, SortsAndHoldsBackWhatIsAfterTheHorizon) {
    EventOrder order;
    for (uint64_t t : {10, 30, 20, 50, 40})
        order.add(t, record(t, 16 + t));
    EXPECT_EQ(release(order, 35), (std::vector<uint64_t>{10, 20, 30}));
    EXPECT_EQ(order.pending(), 2u);
    // A late record stamped before the held ones comes out before them.
    order.add(45, record(45, 24));
    EXPECT_EQ(release(order, UINT64_MAX), (std::vector<uint64_t>{40, 45, 50}));
    EXPECT_EQ(order.pending(), 0u);
}

TEST(EventOrder, EqualTimestampsKeepTheirOrder) {
    EventOrder order;
    order.add(5, record(5, 32));
    order.add(3, record(3, 16));
    order.add(5, record(5, 40));
    std::vector<size_t> sizes;
    order.release_all([&](std::span<const uint8_t> bytes) { sizes.push_back(bytes.size()); });
    EXPECT_EQ(sizes, (std::vector<size_t>{16, 32, 40}));
}

} // namespace
} // namespace dtrace::live
