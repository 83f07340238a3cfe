// The records the kernel path writes, read back as the engine's record
// fields: each value in order, execname cut at its NUL, constants from the
// layout, and what is not a record of the plan refused.
#include "compiled_clauses.h"
#include "fastpath/kernel_records.h"

#include <cstring>
#include <span>

using namespace dtrace;

namespace {

struct Built {
    std::unique_ptr<compiler::Program> program;
    fastpath::MapPlan plan;
};

Built build(const std::string &source, bool kernel_stacks = false) {
    Built b;
    b.program = test::compile_d(source);
    fastpath::ProbeShape shape{6, 16, false};
    shape.kernel_stacks = kernel_stacks;
    if (b.program) {
        const fastpath::ProbeIdentity probe = test::test_probe(*b.program);
        fastpath::build_program(b.plan, shape, test::clauses_of(*b.program), &probe);
    }
    return b;
}

template <typename T> void put(std::vector<uint8_t> &out, T value) {
    const size_t at = out.size();
    out.resize(at + sizeof value);
    std::memcpy(out.data() + at, &value, sizeof value);
}

} // namespace

TEST(FastpathRecords, ALayoutPerClauseThatRecords) {
    Built b = build("a:::b { printf(\"%d %s %s\\n\", arg0, execname, probefunc); } a:::b { @ = count(); } a:::b { }");
    ASSERT_TRUE(b.program);
    ASSERT_EQ(b.plan.records.size(), 2u); // epids 2 and 4
    const fastpath::RecordLayout &printf_layout = b.plan.records.at(2);
    ASSERT_EQ(printf_layout.fields.size(), 3u);
    EXPECT_EQ(printf_layout.fields[0].kind, fastpath::RecordField::Kind::Integer);
    EXPECT_EQ(printf_layout.fields[1].kind, fastpath::RecordField::Kind::Execname);
    EXPECT_EQ(printf_layout.fields[2].kind, fastpath::RecordField::Kind::Constant);
    EXPECT_EQ(printf_layout.fields[2].text, "func");
    EXPECT_EQ(printf_layout.bytes, fastpath::kRecordHeaderBytes + 8 + 16);
    EXPECT_TRUE(b.plan.records.at(4).fields.empty());
    EXPECT_TRUE(b.plan.by_name.count("records"));
}

TEST(FastpathRecords, DecodesAsTheEngineRecords) {
    Built b = build("a:::b { printf(\"%d %s %s\\n\", arg0, execname, probefunc); }");
    ASSERT_TRUE(b.program);
    std::vector<uint8_t> record;
    put<uint32_t>(record, 2); // epid
    put<uint32_t>(record, 1); // cpu
    put<uint64_t>(record, 12345);
    put<int64_t>(record, -7);
    char comm[16] = "bash";
    record.insert(record.end(), comm, comm + sizeof comm);
    std::optional<fastpath::DecodedRecord> r = fastpath::decode_record(b.plan, record);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->epid, 2u);
    EXPECT_EQ(r->cpu, 1u);
    EXPECT_EQ(r->timestamp, 12345u);
    ASSERT_EQ(r->values.size(), 3u);
    EXPECT_EQ(std::get<uint64_t>(r->values[0]), uint64_t(-7));
    EXPECT_EQ(std::get<std::string_view>(r->values[1]), "bash");
    EXPECT_EQ(std::get<std::string_view>(r->values[2]), "func");
    // A full 16-byte name has no NUL: all of it.
    std::memcpy(record.data() + 24, "abcdefghijklmnop", 16);
    r = fastpath::decode_record(b.plan, record);
    ASSERT_TRUE(r);
    EXPECT_EQ(std::get<std::string_view>(r->values[1]), "abcdefghijklmnop");
}

TEST(FastpathRecords, RefusesWhatIsNotARecordOfThePlan) {
    Built b = build("a:::b { trace(arg0); }");
    ASSERT_TRUE(b.program);
    std::vector<uint8_t> record;
    put<uint32_t>(record, 9); // no such epid
    put<uint32_t>(record, 0);
    put<uint64_t>(record, 1);
    put<uint64_t>(record, 1);
    EXPECT_FALSE(fastpath::decode_record(b.plan, record));
    std::memcpy(record.data(), "\x02\0\0\0", 4);
    EXPECT_TRUE(fastpath::decode_record(b.plan, record));
    record.resize(20); // shorter than its layout
    EXPECT_FALSE(fastpath::decode_record(b.plan, record));
    EXPECT_FALSE(fastpath::decode_record(b.plan, std::span<const uint8_t>(record.data(), 8)));
}

TEST(FastpathRecords, StacksDecodeAsTheEngineRecordsThemLessTheTracingFrames) {
    Built b = build("a:::b { stack(2); printf(\"%d\\n\", arg0); }", true);
    ASSERT_TRUE(b.program);
    const fastpath::RecordLayout &layout = b.plan.records.at(2);
    ASSERT_EQ(layout.fields.size(), 2u);
    EXPECT_EQ(layout.fields[0].kind, fastpath::RecordField::Kind::KernelStack);
    const uint32_t stack_bytes = fastpath::kernel_stack_frames(layout.fields[0].stack) * 8;
    EXPECT_EQ(layout.bytes, fastpath::kRecordHeaderBytes + stack_bytes + 8);
    std::vector<uint8_t> record;
    put<uint32_t>(record, 2);
    put<uint32_t>(record, 0);
    put<uint64_t>(record, 1);
    std::vector<uint64_t> frames{0x10, 0x1000, 0x2000, 0x3000};
    frames.resize(stack_bytes / 8);
    for (uint64_t f : frames)
        put<uint64_t>(record, f);
    put<int64_t>(record, 5);
    // The plugin's count: one tracing frame (below 0x100).
    auto skip = [](std::span<const uint64_t> s) -> size_t { return !s.empty() && s[0] < 0x100 ? 1 : 0; };
    std::optional<fastpath::DecodedRecord> r = fastpath::decode_record(b.plan, record, skip);
    ASSERT_TRUE(r);
    ASSERT_EQ(r->values.size(), 2u);
    const uint64_t shown[] = {0x1000, 0x2000};
    EXPECT_EQ(std::get<std::string_view>(r->values[0]),
              std::string_view(reinterpret_cast<const char *>(shown), sizeof shown));
    EXPECT_EQ(std::get<uint64_t>(r->values[1]), 5u);
}
