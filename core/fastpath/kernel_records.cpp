// kernel_records.cpp: records written in the kernel and read back (see kernel_records.h).
#include "fastpath/kernel_records.h"

#include <cstring>

namespace dtrace::fastpath {

using namespace bpf;

namespace {

uint32_t scratch_map(MapPlan &plan) {
    if (auto it = plan.by_name.find("record"); it != plan.by_name.end())
        return it->second;
    return plan.add("record", MapSpec{DTRACE_BPF_MAP_PERCPU_ARRAY, 4, kRecordHeaderBytes, 1, "dt_record"});
}

uint32_t ring_map(MapPlan &plan) {
    if (auto it = plan.by_name.find("records"); it != plan.by_name.end())
        return it->second;
    return plan.add("records",
                    MapSpec{DTRACE_BPF_MAP_RINGBUF, 0, 0, static_cast<uint32_t>(plan.ring_bytes), "dt_records"});
}

} // namespace

RecordWriter::RecordWriter(BpfEmitter &out, MapPlan &plan, uint32_t epid)
    : out_(out), plan_(plan), epid_(epid), scratch_map_(scratch_map(plan)), ring_map_(ring_map(plan)),
      skip_(out.new_label()) {
    layout_.bytes = kRecordHeaderBytes;
}

void RecordWriter::load_scratch() {
    out_.store_imm(kW, R10, frame::kIndex, 0);
    emit_map_lookup(out_, scratch_map_, frame::kIndex);
    out_.jump_imm(kJeq, R0, 0, skip_);
    out_.mov(R9, R0);
}

void RecordWriter::field(const DifoValue &value, const dif::TypeDesc &type) {
    const bool is_string = type.kind == dif::TypeDesc::Kind::String;
    if (type.kind == dif::TypeDesc::Kind::ByRef)
        throw Refusal("recording values other than integers and strings is not available in the kernel path");
    if (is_string != (value.kind != DifoValue::Kind::Integer))
        throw Refusal("a recorded value whose type the kernel path cannot tell");
    RecordField f;
    const int16_t at = static_cast<int16_t>(layout_.bytes);
    switch (value.kind) {
    case DifoValue::Kind::Integer:
        f.kind = RecordField::Kind::Integer;
        load_scratch();
        out_.load(kDw, R1, R10, frame::kResult);
        out_.store(kDw, R9, at, R1);
        layout_.bytes += 8;
        break;
    case DifoValue::Kind::Execname:
        f.kind = RecordField::Kind::Execname;
        load_scratch();
        for (int16_t word = 0; word < 16; word += 8) {
            out_.load(kDw, R1, R10, static_cast<int16_t>(frame::kComm + word));
            out_.store(kDw, R9, static_cast<int16_t>(at + word), R1);
        }
        layout_.bytes += kStringKeyBytes;
        break;
    case DifoValue::Kind::Constant:
        f.kind = RecordField::Kind::Constant;
        f.text = value.text;
        break;
    }
    if (layout_.bytes > kMaxRecordBytes)
        throw Refusal("a record of more than " + std::to_string(kMaxRecordBytes) + " bytes");
    layout_.fields.push_back(std::move(f));
}

void RecordWriter::finish() {
    MapSpec &scratch = plan_.maps[scratch_map_];
    scratch.value_size = std::max(scratch.value_size, layout_.bytes);
    plan_.records[epid_] = layout_;
    load_scratch();
    out_.store_imm(kW, R9, 0, static_cast<int32_t>(epid_));
    out_.call(Helper::GetSmpProcessorId);
    out_.store(kW, R9, 4, R0);
    out_.load(kDw, R1, R10, frame::kTimestamp);
    out_.store(kDw, R9, 8, R1);
    out_.load_map(R1, ring_map_);
    out_.mov(R2, R9);
    out_.mov_imm(R3, static_cast<int32_t>(layout_.bytes));
    out_.mov_imm(R4, kRingbufNoWakeup);
    out_.call(Helper::RingbufOutput);
    out_.jump_imm(kJeq, R0, 0, skip_);
    emit_count_drop(out_, MapPlan::kRecordDrops);
    out_.bind(skip_);
}

std::optional<DecodedRecord> decode_record(const MapPlan &plan, std::span<const uint8_t> record) {
    if (record.size() < kRecordHeaderBytes)
        return std::nullopt;
    DecodedRecord out;
    std::memcpy(&out.epid, record.data(), 4);
    std::memcpy(&out.cpu, record.data() + 4, 4);
    std::memcpy(&out.timestamp, record.data() + 8, 8);
    auto layout = plan.records.find(out.epid);
    if (layout == plan.records.end() || record.size() < layout->second.bytes)
        return std::nullopt;
    size_t at = kRecordHeaderBytes;
    for (const RecordField &f : layout->second.fields) {
        switch (f.kind) {
        case RecordField::Kind::Integer: {
            uint64_t v;
            std::memcpy(&v, record.data() + at, 8);
            out.values.emplace_back(v);
            at += 8;
            break;
        }
        case RecordField::Kind::Execname: {
            const char *text = reinterpret_cast<const char *>(record.data() + at);
            out.values.emplace_back(std::string_view(text, strnlen(text, kStringKeyBytes)));
            at += kStringKeyBytes;
            break;
        }
        case RecordField::Kind::Constant:
            out.values.emplace_back(std::string_view(f.text));
            break;
        }
    }
    return out;
}

} // namespace dtrace::fastpath
