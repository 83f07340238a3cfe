// kernel_records.cpp: records written in the kernel and read back (see kernel_records.h).
#include "fastpath/kernel_records.h"

#include "fastpath/kernel_strings.h"

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

void emit_load_epid(BpfEmitter &out, Reg dst, const FaultSite &site) {
    if (site.shared_clause < 0)
        return out.mov_imm(dst, static_cast<int32_t>(site.epid));
    out.load(kDw, R1, R10, frame::kProbeInfo);
    out.load(kW, dst, R1, static_cast<int16_t>(4 * site.shared_clause));
}

void emit_fault_record(BpfEmitter &out, MapPlan &plan, const FaultSite &site, uint32_t pc, dif::FaultKind kind,
                       int16_t address_offset) {
    BpfEmitter::Label reserved = out.new_label(), done = out.new_label();
    out.load_map(R1, ring_map(plan));
    out.mov_imm(R2, kFaultRecordBytes);
    out.mov_imm(R3, 0);
    out.call(Helper::RingbufReserve);
    out.jump_imm(kJne, R0, 0, reserved);
    emit_count_drop(out, MapPlan::kRecordDrops);
    out.jump(done);
    out.bind(reserved);
    out.mov(R8, R0);
    out.call(Helper::GetSmpProcessorId);
    out.store(kW, R8, 4, R0);
    out.store_imm(kW, R8, 0, static_cast<int32_t>(kFaultTag));
    out.load(kDw, R1, R10, frame::kTimestamp);
    out.store(kDw, R8, 8, R1);
    emit_load_epid(out, R2, site);
    out.store(kW, R8, 16, R2);
    out.store_imm(kW, R8, 20, site.action);
    out.store_imm(kW, R8, 24, static_cast<int32_t>(pc));
    out.store_imm(kW, R8, 28, static_cast<int32_t>(kind));
    out.load(kDw, R1, R10, address_offset);
    out.store(kDw, R8, 32, R1);
    out.mov(R1, R8);
    out.mov_imm(R2, kRingbufNoWakeup);
    out.call(Helper::RingbufSubmit);
    out.bind(done);
}

RecordWriter::RecordWriter(BpfEmitter &out, MapPlan &plan, const FaultSite &site, const SharedProbeList *shared)
    : out_(out), plan_(plan), site_(site), shared_(shared), scratch_map_(scratch_map(plan)), ring_map_(ring_map(plan)),
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
    if (is_string != value.is_string())
        throw Refusal("a recorded value whose type the kernel path cannot tell");
    RecordField f;
    int probe_name = -1;
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
    case DifoValue::Kind::Buffer:
        throw Refusal(kCopyinBytesAsValue);
    case DifoValue::Kind::Memory:
        if (value.memory.probe_name >= 0 && shared_) { // the probe's name: user space knows it by the epid
            f.kind = RecordField::Kind::Constant;
            probe_name = value.memory.probe_name;
            break;
        }
        f.kind = RecordField::Kind::String;
        if (layout_.bytes + plan_.string_bytes > kMaxRecordBytes)
            throw Refusal("a record of more than " + std::to_string(kMaxRecordBytes) + " bytes");
        load_scratch();
        emit_store_string(out_, value.string(), R9, at, plan_.string_bytes, plan_.string_bytes);
        layout_.bytes += plan_.string_bytes;
        break;
    }
    if (layout_.bytes > kMaxRecordBytes)
        throw Refusal("a record of more than " + std::to_string(kMaxRecordBytes) + " bytes");
    layout_.fields.push_back(std::move(f));
    probe_names_.push_back(probe_name);
}

void RecordWriter::kernel_stack(const dif::TypeDesc &type) {
    const uint32_t bytes = kernel_stack_frames(type) * 8;
    if (layout_.bytes + bytes > kMaxRecordBytes)
        throw Refusal("a record of more than " + std::to_string(kMaxRecordBytes) + " bytes");
    load_scratch();
    emit_kernel_stack(out_, R9, static_cast<int16_t>(layout_.bytes), type);
    RecordField f;
    f.kind = RecordField::Kind::KernelStack;
    f.stack = type;
    layout_.bytes += bytes;
    layout_.fields.push_back(std::move(f));
    probe_names_.push_back(-1);
}

void RecordWriter::finish() {
    MapSpec &scratch = plan_.maps[scratch_map_];
    scratch.value_size = std::max(scratch.value_size, layout_.bytes);
    if (!shared_) {
        plan_.records[site_.epid] = layout_;
    } else {
        for (const ProbeIdentity *probe : *shared_) {
            const std::string *names[] = {&probe->provider, &probe->module, &probe->function, &probe->name};
            RecordLayout layout = layout_;
            for (size_t i = 0; i < layout.fields.size(); i++)
                if (probe_names_[i] >= 0)
                    layout.fields[i].text = *names[probe_names_[i]];
            plan_.records[probe->epids.at(static_cast<size_t>(site_.shared_clause))] = std::move(layout);
        }
    }
    load_scratch();
    emit_load_epid(out_, R2, site_);
    out_.store(kW, R9, 0, R2);
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

std::optional<DecodedRecord> decode_record(const MapPlan &plan, std::span<const uint8_t> record,
                                           const KernelStackSkip &skip) {
    if (record.size() < kRecordHeaderBytes)
        return std::nullopt;
    DecodedRecord out;
    std::memcpy(&out.epid, record.data(), 4);
    std::memcpy(&out.cpu, record.data() + 4, 4);
    std::memcpy(&out.timestamp, record.data() + 8, 8);
    if (out.epid == kFaultTag) {
        if (record.size() < kFaultRecordBytes)
            return std::nullopt;
        KernelFault f;
        std::memcpy(&f.epid, record.data() + 16, 4);
        std::memcpy(&f.action, record.data() + 20, 4);
        std::memcpy(&f.pc, record.data() + 24, 4);
        std::memcpy(&f.kind, record.data() + 28, 4);
        std::memcpy(&f.address, record.data() + 32, 8);
        out.fault = f;
        return out;
    }
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
        case RecordField::Kind::String: {
            const char *text = reinterpret_cast<const char *>(record.data() + at);
            out.values.emplace_back(std::string_view(text, strnlen(text, plan.string_bytes)));
            at += plan.string_bytes;
            break;
        }
        case RecordField::Kind::KernelStack: {
            const size_t bytes = kernel_stack_frames(f.stack) * 8;
            out.stacks.push_back(engine_stack(
                f.stack, std::string_view(reinterpret_cast<const char *>(record.data() + at), bytes), skip));
            out.values.emplace_back(std::string_view(out.stacks.back()));
            at += bytes;
            break;
        }
        }
    }
    return out;
}

} // namespace dtrace::fastpath
