// mof_classes.cpp: the table of the NT kernel's MOF events and its decoder.
//
// Layouts: wmicore.mof and PerfView's KernelTraceEventParser, as summed up in
// etw-formats.md 2. Field names are the MOF's; a name means the same thing in
// every row of a class, so that code reading a field does not care which
// version logged it.
#include "kernel/mof_classes.h"

#include <algorithm>
#include <cstdio>
#include <unordered_map>
#include <vector>

#include "reader/kernel_groups.h"
#include "reader/le_bytes.h"
#include "reader/utf16.h"

namespace dtrace::etw::plugin::kernel {

namespace {

using T = MofType;
using K = KernelClass;

// Process: Start 1, End 2, DCStart 3, DCEnd 4, Defunct 39.
constexpr MofField kProcessV1[] = {{"UniqueProcessKey", T::Pointer},
                                   {"ProcessId", T::U32},
                                   {"ParentId", T::U32},
                                   {"SessionId", T::U32},
                                   {"ExitStatus", T::I32},
                                   {"UserSID", T::Sid},
                                   {"ImageFileName", T::AnsiString}};
constexpr MofField kProcessV2[] = {{"UniqueProcessKey", T::Pointer},
                                   {"ProcessId", T::U32},
                                   {"ParentId", T::U32},
                                   {"SessionId", T::U32},
                                   {"ExitStatus", T::I32},
                                   {"UserSID", T::Sid},
                                   {"ImageFileName", T::AnsiString},
                                   {"CommandLine", T::WideString}};
constexpr MofField kProcessV3[] = {{"UniqueProcessKey", T::Pointer},
                                   {"ProcessId", T::U32},
                                   {"ParentId", T::U32},
                                   {"SessionId", T::U32},
                                   {"ExitStatus", T::I32},
                                   {"DirectoryTableBase", T::Pointer},
                                   {"UserSID", T::Sid},
                                   {"ImageFileName", T::AnsiString},
                                   {"CommandLine", T::WideString}};
constexpr MofField kProcessV4[] = {{"UniqueProcessKey", T::Pointer},
                                   {"ProcessId", T::U32},
                                   {"ParentId", T::U32},
                                   {"SessionId", T::U32},
                                   {"ExitStatus", T::I32},
                                   {"DirectoryTableBase", T::Pointer},
                                   {"Flags", T::U32},
                                   {"UserSID", T::Sid},
                                   {"ImageFileName", T::AnsiString},
                                   {"CommandLine", T::WideString},
                                   {"PackageFullName", T::WideString},
                                   {"ApplicationId", T::WideString}};

// Thread: Start 1, End 2, DCStart 3, DCEnd 4; CSwitch 36; ReadyThread 50.
constexpr MofField kThreadV2[] = {
    {"ProcessId", T::U32},      {"TThreadId", T::U32},          {"StackBase", T::Pointer},
    {"StackLimit", T::Pointer}, {"UserStackBase", T::Pointer},  {"UserStackLimit", T::Pointer},
    {"StartAddr", T::Pointer},  {"Win32StartAddr", T::Pointer}, {"TebBase", T::Pointer},
    {"SubProcessTag", T::U32},  {"BasePriority", T::U8},        {"PagePriority", T::U8},
    {"IoPriority", T::U8},      {"ThreadFlags", T::U8},         {"ThreadName", T::WideString}};
constexpr MofField kCSwitch[] = {{"NewThreadId", T::U32},        {"OldThreadId", T::U32},
                                 {"NewThreadPriority", T::I8},   {"OldThreadPriority", T::I8},
                                 {"PreviousCState", T::U8},      {"SpareByte", T::I8},
                                 {"OldThreadWaitReason", T::I8}, {"OldThreadWaitMode", T::I8},
                                 {"OldThreadState", T::I8},      {"OldThreadWaitIdealProcessor", T::I8},
                                 {"NewThreadWaitTime", T::U32},  {"Reserved", T::U32}};
constexpr MofField kReadyThread[] = {
    {"TThreadId", T::U32}, {"AdjustReason", T::I8}, {"AdjustIncrement", T::I8}, {"Flag", T::I8}, {"Reserved", T::I8}};

// Image: Load (hook 0x030A) 10, Unload 2, DCStart 3, DCEnd 4.
constexpr MofField kImageV0[] = {{"ImageBase", T::Pointer}, {"ImageSize", T::U32}, {"FileName", T::WideString}};
constexpr MofField kImageV1[] = {
    {"ImageBase", T::Pointer}, {"ImageSize", T::Pointer}, {"ProcessId", T::U32}, {"FileName", T::WideString}};
constexpr MofField kImageV2[] = {{"ImageBase", T::Pointer},   {"ImageSize", T::Pointer}, {"ProcessId", T::U32},
                                 {"ImageChecksum", T::U32},   {"TimeDateStamp", T::U32}, {"Reserved0", T::U32},
                                 {"DefaultBase", T::Pointer}, {"Reserved1", T::U32},     {"Reserved2", T::U32},
                                 {"Reserved3", T::U32},       {"Reserved4", T::U32},     {"FileName", T::WideString}};

// DiskIo: Read 10, Write 11; ReadInit 12, WriteInit 13, FlushInit 15; FlushBuffers 14.
constexpr MofField kDiskIo[] = {
    {"DiskNumber", T::U32},     {"IrpFlags", T::U32},       {"TransferSize", T::U32}, {"Reserved", T::U32},
    {"ByteOffset", T::U64},     {"FileObject", T::Pointer}, {"Irp", T::Pointer},      {"HighResResponseTime", T::U64},
    {"IssuingThreadId", T::U32}};
constexpr MofField kDiskIoInit[] = {{"Irp", T::Pointer}, {"IssuingThreadId", T::U32}};
constexpr MofField kDiskIoFlush[] = {{"DiskNumber", T::U32},
                                     {"IrpFlags", T::U32},
                                     {"HighResResponseTime", T::U64},
                                     {"Irp", T::Pointer},
                                     {"IssuingThreadId", T::U32}};

// FileIo (v2: the thread id is a pointer-sized field after the IRP; v3 moved it).
constexpr MofField kFileName[] = {{"FileObject", T::Pointer}, {"FileName", T::WideString}};
constexpr MofField kFileCreateV2[] = {
    {"IrpPtr", T::Pointer},     {"TTID", T::Pointer},    {"FileObject", T::Pointer}, {"CreateOptions", T::U32},
    {"FileAttributes", T::U32}, {"ShareAccess", T::U32}, {"OpenPath", T::WideString}};
constexpr MofField kFileCreateV3[] = {{"IrpPtr", T::Pointer},     {"FileObject", T::Pointer}, {"TTID", T::U32},
                                      {"CreateOptions", T::U32},  {"FileAttributes", T::U32}, {"ShareAccess", T::U32},
                                      {"OpenPath", T::WideString}};
constexpr MofField kFileSimpleV2[] = {
    {"IrpPtr", T::Pointer}, {"TTID", T::Pointer}, {"FileObject", T::Pointer}, {"FileKey", T::Pointer}};
constexpr MofField kFileSimpleV3[] = {
    {"IrpPtr", T::Pointer}, {"FileObject", T::Pointer}, {"FileKey", T::Pointer}, {"TTID", T::U32}};
constexpr MofField kFileReadWriteV2[] = {{"Offset", T::U64},         {"IrpPtr", T::Pointer},  {"TTID", T::Pointer},
                                         {"FileObject", T::Pointer}, {"FileKey", T::Pointer}, {"IoSize", T::U32},
                                         {"IoFlags", T::U32}};
constexpr MofField kFileReadWriteV3[] = {{"Offset", T::U64},      {"IrpPtr", T::Pointer}, {"FileObject", T::Pointer},
                                         {"FileKey", T::Pointer}, {"TTID", T::U32},       {"IoSize", T::U32},
                                         {"IoFlags", T::U32}};
constexpr MofField kFileInfoV2[] = {{"IrpPtr", T::Pointer},  {"TTID", T::Pointer},      {"FileObject", T::Pointer},
                                    {"FileKey", T::Pointer}, {"ExtraInfo", T::Pointer}, {"InfoClass", T::U32}};
constexpr MofField kFileInfoV3[] = {{"IrpPtr", T::Pointer},    {"FileObject", T::Pointer}, {"FileKey", T::Pointer},
                                    {"ExtraInfo", T::Pointer}, {"TTID", T::U32},           {"InfoClass", T::U32}};
constexpr MofField kFileDirEnumV2[] = {{"IrpPtr", T::Pointer},  {"TTID", T::Pointer},       {"FileObject", T::Pointer},
                                       {"FileKey", T::Pointer}, {"Length", T::U32},         {"InfoClass", T::U32},
                                       {"FileIndex", T::U32},   {"FileName", T::WideString}};
constexpr MofField kFileDirEnumV3[] = {{"IrpPtr", T::Pointer}, {"FileObject", T::Pointer}, {"FileKey", T::Pointer},
                                       {"TTID", T::U32},       {"Length", T::U32},         {"InfoClass", T::U32},
                                       {"FileIndex", T::U32},  {"FileName", T::WideString}};
constexpr MofField kFileOpEnd[] = {{"IrpPtr", T::Pointer}, {"ExtraInfo", T::Pointer}, {"NtStatus", T::U32}};
constexpr MofField kFilePath[] = {{"IrpPtr", T::Pointer},     {"FileObject", T::Pointer}, {"FileKey", T::Pointer},
                                  {"ExtraInfo", T::Pointer},  {"TTID", T::U32},           {"InfoClass", T::U32},
                                  {"FileName", T::WideString}};

// Registry: 10 Create ... 29 QuerySecurity, one layout.
constexpr MofField kRegistry[] = {{"InitialTime", T::I64},
                                  {"Status", T::U32},
                                  {"Index", T::U32},
                                  {"KeyHandle", T::Pointer},
                                  {"KeyName", T::WideString}};

// TcpIp and UdpIp (the PID in the payload; ports and addresses in network order).
constexpr MofField kTcpSendV4[] = {{"PID", T::U32},    {"size", T::U32},      {"daddr", T::Ipv4},   {"saddr", T::Ipv4},
                                   {"dport", T::Port}, {"sport", T::Port},    {"startime", T::U32}, {"endtime", T::U32},
                                   {"seqnum", T::U32}, {"connid", T::Pointer}};
constexpr MofField kTcpV4[] = {{"PID", T::U32},    {"size", T::U32},   {"daddr", T::Ipv4}, {"saddr", T::Ipv4},
                               {"dport", T::Port}, {"sport", T::Port}, {"seqnum", T::U32}, {"connid", T::Pointer}};
constexpr MofField kTcpConnectV4[] = {
    {"PID", T::U32},    {"size", T::U32},        {"daddr", T::Ipv4},      {"saddr", T::Ipv4}, {"dport", T::Port},
    {"sport", T::Port}, {"mss", T::U16},         {"sackopt", T::U16},     {"tsopt", T::U16},  {"wsopt", T::U16},
    {"rcvwin", T::U32}, {"rcvwinscale", T::I16}, {"sndwinscale", T::I16}, {"seqnum", T::U32}, {"connid", T::Pointer}};
constexpr MofField kTcpSendV6[] = {{"PID", T::U32},    {"size", T::U32},      {"daddr", T::Ipv6},   {"saddr", T::Ipv6},
                                   {"dport", T::Port}, {"sport", T::Port},    {"startime", T::U32}, {"endtime", T::U32},
                                   {"seqnum", T::U32}, {"connid", T::Pointer}};
constexpr MofField kTcpV6[] = {{"PID", T::U32},    {"size", T::U32},   {"daddr", T::Ipv6}, {"saddr", T::Ipv6},
                               {"dport", T::Port}, {"sport", T::Port}, {"seqnum", T::U32}, {"connid", T::Pointer}};
constexpr MofField kTcpConnectV6[] = {
    {"PID", T::U32},    {"size", T::U32},        {"daddr", T::Ipv6},      {"saddr", T::Ipv6}, {"dport", T::Port},
    {"sport", T::Port}, {"mss", T::U16},         {"sackopt", T::U16},     {"tsopt", T::U16},  {"wsopt", T::U16},
    {"rcvwin", T::U32}, {"rcvwinscale", T::I16}, {"sndwinscale", T::I16}, {"seqnum", T::U32}, {"connid", T::Pointer}};
constexpr MofField kNetFail[] = {{"Proto", T::U16}, {"FailureCode", T::U16}};

// PageFault.
constexpr MofField kFault[] = {{"VirtualAddress", T::Pointer}, {"ProgramCounter", T::Pointer}};
constexpr MofField kHardFault[] = {{"InitialTime", T::U64},    {"ReadOffset", T::U64}, {"VirtualAddress", T::Pointer},
                                   {"FileObject", T::Pointer}, {"TThreadId", T::U32},  {"ByteCount", T::U32}};
constexpr MofField kVirtualAlloc[] = {
    {"BaseAddress", T::Pointer}, {"RegionSize", T::Pointer}, {"ProcessId", T::U32}, {"Flags", T::U32}};
constexpr MofField kImageLoadBacked[] = {
    {"FileObject", T::Pointer}, {"DeviceChar", T::U32}, {"FileChar", T::U16}, {"LoadFlags", T::U16}};

// PerfInfo.
constexpr MofField kSampledProfile[] = {
    {"InstructionPointer", T::Pointer}, {"ThreadId", T::U32}, {"Count", T::U16}, {"Flags", T::U8}, {"Rank", T::U8}};
constexpr MofField kSysClEnter[] = {{"SysCallAddress", T::Pointer}};
constexpr MofField kSysClExit[] = {{"SysCallNtStatus", T::U32}};
constexpr MofField kIsr[] = {{"InitialTime", T::U64}, {"Routine", T::Pointer}, {"ReturnValue", T::U8},
                             {"Vector", T::U16},      {"Reserved", T::U8},     {"MessageNumber", T::U32}};
constexpr MofField kDpc[] = {{"InitialTime", T::U64}, {"Routine", T::Pointer}};
constexpr MofField kPmcSample[] = {
    {"InstructionPointer", T::Pointer}, {"ThreadId", T::U32}, {"ProfileSource", T::U16}, {"Reserved", T::U16}};
// PmcCounterConfig: CounterCount wide names follow (family_pmc.cpp reads them).
constexpr MofField kPmcCounterConfig[] = {{"CounterCount", T::U32}};
constexpr MofField kProfileInterval[] = {
    {"Source", T::U32}, {"NewInterval", T::U32}, {"OldInterval", T::U32}, {"SourceName", T::WideString}};

constexpr MofEvent kTable[] = {
    {K::Process, {1, 2, 3, 4, 39}, 1, "Process", kProcessV1},
    {K::Process, {1, 2, 3, 4, 39}, 2, "Process", kProcessV2},
    {K::Process, {1, 2, 3, 4, 39}, 3, "Process", kProcessV3},
    {K::Process, {1, 2, 3, 4, 39}, 4, "Process", kProcessV4},
    {K::Thread, {1, 2, 3, 4}, 2, "Thread", kThreadV2},
    {K::Thread, {36}, 2, "CSwitch", kCSwitch},
    {K::Thread, {50}, 2, "ReadyThread", kReadyThread},
    {K::Image, {10, 2, 3, 4}, 0, "Image", kImageV0},
    {K::Image, {10, 2, 3, 4}, 1, "Image", kImageV1},
    {K::Image, {10, 2, 3, 4}, 2, "Image", kImageV2},
    {K::DiskIo, {10, 11}, 2, "DiskIo", kDiskIo},
    {K::DiskIo, {12, 13, 15}, 2, "DiskIoInit", kDiskIoInit},
    {K::DiskIo, {14}, 2, "DiskIoFlush", kDiskIoFlush},
    {K::FileIo, {0, 32, 35, 36}, 0, "FileIoName", kFileName},
    {K::FileIo, {64}, 2, "FileIoCreate", kFileCreateV2},
    {K::FileIo, {64}, 3, "FileIoCreate", kFileCreateV3},
    {K::FileIo, {65, 66, 73}, 2, "FileIoSimpleOp", kFileSimpleV2},
    {K::FileIo, {65, 66, 73}, 3, "FileIoSimpleOp", kFileSimpleV3},
    {K::FileIo, {67, 68}, 2, "FileIoReadWrite", kFileReadWriteV2},
    {K::FileIo, {67, 68}, 3, "FileIoReadWrite", kFileReadWriteV3},
    {K::FileIo, {69, 70, 71, 74, 75}, 2, "FileIoInfo", kFileInfoV2},
    {K::FileIo, {69, 70, 71, 74, 75}, 3, "FileIoInfo", kFileInfoV3},
    {K::FileIo, {72, 77}, 2, "FileIoDirEnum", kFileDirEnumV2},
    {K::FileIo, {72, 77}, 3, "FileIoDirEnum", kFileDirEnumV3},
    {K::FileIo, {76}, 2, "FileIoOpEnd", kFileOpEnd},
    {K::FileIo, {79, 80, 81}, 3, "FileIoPathOperation", kFilePath},
    {K::Registry, {10, 11, 12, 13, 14, 15}, 2, "Registry", kRegistry},
    {K::Registry, {16, 17, 18, 19, 20, 21}, 2, "Registry", kRegistry},
    {K::Registry, {22, 23, 24, 25, 26, 27}, 2, "Registry", kRegistry},
    {K::Registry, {28, 29}, 2, "Registry", kRegistry},
    {K::TcpIp, {10}, 0, "TcpIpSendIPV4", kTcpSendV4},
    {K::TcpIp, {11, 13, 14, 16, 18}, 0, "TcpIpV4", kTcpV4},
    {K::TcpIp, {12, 15}, 0, "TcpIpConnectIPV4", kTcpConnectV4},
    {K::TcpIp, {17}, 0, "TcpIpFail", kNetFail},
    {K::TcpIp, {26}, 0, "TcpIpSendIPV6", kTcpSendV6},
    {K::TcpIp, {27, 29, 30, 32, 34}, 0, "TcpIpV6", kTcpV6},
    {K::TcpIp, {28, 31}, 0, "TcpIpConnectIPV6", kTcpConnectV6},
    {K::UdpIp, {10, 11}, 0, "UdpIpV4", kTcpV4},
    {K::UdpIp, {26, 27}, 0, "UdpIpV6", kTcpV6},
    {K::UdpIp, {17}, 0, "UdpIpFail", kNetFail},
    {K::PageFault, {10, 11, 12, 13, 14, 15}, 0, "PageFault", kFault},
    {K::PageFault, {32}, 0, "PageFaultHardFault", kHardFault},
    {K::PageFault, {98, 99}, 0, "PageFaultVirtualAlloc", kVirtualAlloc},
    {K::PageFault, {105}, 0, "PageFaultImageLoadBacked", kImageLoadBacked},
    {K::PerfInfo, {46}, 0, "SampledProfile", kSampledProfile},
    {K::PerfInfo, {51}, 0, "SysCallEnter", kSysClEnter},
    {K::PerfInfo, {52}, 0, "SysCallExit", kSysClExit},
    {K::PerfInfo, {50, 67, 95}, 0, "ISR", kIsr},
    {K::PerfInfo, {66, 68, 69, 70}, 0, "DPC", kDpc},
    {K::PerfInfo, {47}, 0, "PmcCounterProfile", kPmcSample},
    {K::PerfInfo, {48}, 0, "PmcCounterConfig", kPmcCounterConfig},
    {K::PerfInfo, {72, 73, 74}, 0, "SampledProfileInterval", kProfileInterval},
};

constexpr size_t kPointerSize32 = 4;
constexpr size_t kPointerSize64 = 8;

// The types with a number for value, of fixed size (Ipv4 and Ipv6 are text).
bool is_integer(MofType type) {
    switch (type) {
    case T::U8:
    case T::U16:
    case T::U32:
    case T::U64:
    case T::I8:
    case T::I16:
    case T::I32:
    case T::I64:
    case T::Pointer:
    case T::Port:
        return true;
    default:
        return false;
    }
}

size_t fixed_size(MofType type, size_t pointer_size) {
    switch (type) {
    case T::U8:
    case T::I8:
        return 1;
    case T::U16:
    case T::I16:
    case T::Port:
        return 2;
    case T::U32:
    case T::I32:
    case T::Ipv4:
        return 4;
    case T::U64:
    case T::I64:
        return 8;
    case T::Pointer:
        return pointer_size;
    case T::Ipv6:
        return 16;
    default:
        return 0;
    }
}

// Rows by class and opcode, lowest min_version first; and the field names of
// the table numbered (MofFieldId), with each row's index of each name.
class MofIndex {
  public:
    MofIndex() {
        ids_.emplace(std::string_view(), kNoName); // id 0: a name no row has
        for (const MofEvent &e : kTable) {
            for (size_t i = 0; i < e.opcodes.size() && (i == 0 || e.opcodes[i] != 0); ++i) {
                rows_[slot(static_cast<int>(e.klass), e.opcodes[i])].push_back(&e);
            }
            for (const MofField &f : e.fields) {
                ids_.emplace(f.name, static_cast<uint16_t>(ids_.size()));
            }
        }
        for (auto &rows : rows_) {
            std::stable_sort(rows.begin(), rows.end(),
                             [](const MofEvent *a, const MofEvent *b) { return a->min_version < b->min_version; });
        }
        layouts_.resize(std::size(kTable));
        for (size_t row = 0; row < std::size(kTable); ++row) {
            layouts_[row] = layout_of(kTable[row]);
        }
        slots_.assign(std::size(kTable) * ids_.size(), -1);
        for (size_t row = 0; row < std::size(kTable); ++row) {
            const std::span<const MofField> fields = kTable[row].fields;
            for (size_t i = 0; i < fields.size() && i < kMaxMofFields; ++i) {
                int8_t &index = slots_[row * ids_.size() + ids_.at(fields[i].name)];
                if (index < 0) { // a name twice in a row: the first, as a search by name finds
                    index = static_cast<int8_t>(i);
                }
            }
        }
    }
    const MofEvent *find(int klass, uint8_t opcode, uint8_t version) const {
        const MofEvent *found = nullptr;
        for (const MofEvent *e : rows_[slot(klass, opcode)]) {
            if (e->min_version <= version || found == nullptr) {
                found = e; // an older version than any row: the oldest layout
            }
        }
        return found;
    }
    uint16_t id(std::string_view name) const {
        auto it = ids_.find(name);
        return it == ids_.end() ? kNoName : it->second;
    }
    const int8_t *slots(const MofEvent &row) const { return slots_.data() + ordinal(row) * ids_.size(); }
    // The row's leading integer fields (all fixed size and at fixed offsets):
    // their count, and the end offset of each for a logger of this pointer size.
    size_t integer_count(const MofEvent &row) const { return layouts_[ordinal(row)].count; }
    const uint8_t *integer_ends(const MofEvent &row, size_t pointer_size) const {
        return layouts_[ordinal(row)].ends[pointer_size == kPointerSize32 ? 0 : 1].data();
    }

  private:
    struct IntegerLayout {
        size_t count = 0;
        std::array<std::array<uint8_t, kMaxMofFields>, 2> ends{}; // 32-bit, 64-bit loggers
    };
    static IntegerLayout layout_of(const MofEvent &row) {
        IntegerLayout layout;
        size_t end32 = 0, end64 = 0;
        for (const MofField &f : row.fields) {
            if (layout.count == kMaxMofFields || !is_integer(f.type)) {
                break;
            }
            end32 += fixed_size(f.type, kPointerSize32);
            end64 += fixed_size(f.type, kPointerSize64);
            layout.ends[0][layout.count] = static_cast<uint8_t>(end32);
            layout.ends[1][layout.count] = static_cast<uint8_t>(end64);
            ++layout.count;
        }
        return layout;
    }
    static size_t ordinal(const MofEvent &row) { return static_cast<size_t>(&row - std::begin(kTable)); }

    static constexpr uint16_t kNoName = 0;
    static size_t slot(int klass, uint8_t opcode) { return static_cast<size_t>(klass) * 256 + opcode; }
    std::array<std::vector<const MofEvent *>, kClassSlots * 256> rows_;
    std::unordered_map<std::string_view, uint16_t> ids_;
    std::vector<int8_t> slots_; // [row][id]
    std::vector<IntegerLayout> layouts_;
};

const MofIndex &mof_index() {
    static const MofIndex index;
    return index;
}

// TOKEN_USER (two pointers) and a SID of 8 bytes plus 4 per sub-authority
// (their count at byte 1), or 4 zero bytes when there is none.
size_t sid_size(std::span<const uint8_t> p, size_t at, size_t pointer_size) {
    constexpr size_t kNoSid = 4, kSidFixed = 8, kSubAuthority = 4;
    if (at + kNoSid > p.size() || load_u32(p.data() + at) == 0) {
        return kNoSid;
    }
    const size_t sid = at + 2 * pointer_size;
    if (sid + kSidFixed > p.size()) {
        return p.size() - at + 1; // runs past the payload
    }
    return 2 * pointer_size + kSidFixed + kSubAuthority * p[sid + 1];
}

std::string ipv4_text(const uint8_t *b) {
    char text[16];
    std::snprintf(text, sizeof text, "%u.%u.%u.%u", b[0], b[1], b[2], b[3]);
    return text;
}

// RFC 5952's form: lower-case groups, the longest run of zero groups as "::".
std::string ipv6_text(const uint8_t *b) {
    uint16_t g[8];
    for (int i = 0; i < 8; ++i) {
        g[i] = static_cast<uint16_t>(b[2 * i] << 8 | b[2 * i + 1]);
    }
    int best = -1, best_len = 1;
    for (int i = 0; i < 8;) {
        int j = i;
        while (j < 8 && g[j] == 0) {
            ++j;
        }
        if (j - i > best_len) {
            best = i;
            best_len = j - i;
        }
        i = j == i ? i + 1 : j;
    }
    std::string text;
    char group[8];
    for (int i = 0; i < 8; ++i) {
        if (i == best) {
            text += "::";
            i += best_len - 1;
            continue;
        }
        if (!text.empty() && text.back() != ':') {
            text += ':';
        }
        std::snprintf(group, sizeof group, "%x", g[i]);
        text += group;
    }
    return text;
}

const std::string kNoText;

} // namespace

int classic_kernel_class(const Event &event) {
    // Relogged files may carry kernel events as classic records of their class GUID.
    static const std::unordered_map<Guid, int, GuidHash> classes = [] {
        std::unordered_map<Guid, int, GuidHash> m;
        for (int group = 1; group < static_cast<int>(kClassSlots); ++group) {
            const Guid &g = kernel_class_guid(static_cast<uint16_t>(group << 8));
            if (g != Guid{} && group != static_cast<int>(K::Process)) {
                m.emplace(g, group);
            }
        }
        m.emplace(kernel_class_guid(static_cast<uint16_t>(static_cast<int>(K::Process) << 8)),
                  static_cast<int>(K::Process));
        return m;
    }();
    auto it = classes.find(event.provider);
    return it == classes.end() ? kNotKernel : it->second;
}

const MofEvent *find_mof_event(int klass, uint8_t opcode, uint8_t version) {
    if (klass < 0 || klass >= static_cast<int>(kClassSlots)) {
        return nullptr;
    }
    return mof_index().find(klass, opcode, version);
}

MofFieldId::MofFieldId(std::string_view name) : id_(mof_index().id(name)) {}

bool decode_mof(const Event &event, int klass, MofRecord &out) {
    out.event_ = find_mof_event(klass, event.opcode, event.version);
    out.present_ = 0;
    if (out.event_ == nullptr) {
        out.slots_ = nullptr;
        return false;
    }
    const MofIndex &index = mof_index();
    out.slots_ = index.slots(*out.event_);
    const std::span<const uint8_t> p = event.payload;
    const size_t pointer_size = event.pointer_size == kPointerSize32 ? kPointerSize32 : kPointerSize64;
    // The leading integer fields are read when asked for (MofRecord::value).
    const size_t integers = index.integer_count(*out.event_);
    const uint8_t *ends = index.integer_ends(*out.event_, pointer_size);
    out.integers_ = p.data();
    out.ends_ = ends;
    out.integer_count_ = integers;
    if (integers != 0 && ends[integers - 1] > p.size()) {
        while (out.present_ < integers && ends[out.present_] <= p.size()) {
            ++out.present_;
        }
        return true;
    }
    out.present_ = integers;
    size_t at = integers == 0 ? 0 : ends[integers - 1];
    const std::span<const MofField> fields = out.event_->fields;
    for (size_t i = integers; i < fields.size() && i < kMaxMofFields; ++i) {
        const MofType type = fields[i].type;
        uint64_t &value = out.values_[i];
        std::string &text = out.text_[i];
        value = 0;
        text.clear();
        if (type == T::Sid) {
            at += sid_size(p, at, pointer_size);
        } else if (type == T::AnsiString) {
            size_t end = at;
            while (end < p.size() && p[end] != 0) {
                ++end;
            }
            if (at >= p.size()) {
                break;
            }
            text.assign(reinterpret_cast<const char *>(p.data() + at), end - at);
            at = std::min(end + 1, p.size());
        } else if (type == T::WideString) {
            if (at >= p.size()) {
                break;
            }
            Utf16String s = read_utf16z(p.subspan(at));
            text = std::move(s.utf8);
            at += s.bytes;
        } else {
            const size_t size = fixed_size(type, pointer_size);
            if (at + size > p.size()) {
                break;
            }
            if (type == T::Ipv4) {
                text = ipv4_text(p.data() + at);
            } else if (type == T::Ipv6) {
                text = ipv6_text(p.data() + at);
            } else {
                value = load_mof_integer(type, p.data() + at, size);
            }
            at += size;
        }
        if (at > p.size()) {
            break;
        }
        out.present_ = i + 1;
    }
    return true;
}

int MofRecord::index(std::string_view field) const {
    if (event_ == nullptr) {
        return -1;
    }
    for (size_t i = 0; i < present_; ++i) {
        if (event_->fields[i].name == field) {
            return static_cast<int>(i);
        }
    }
    return -1;
}

const std::string &MofRecord::text(int index) const {
    return index < 0 || static_cast<size_t>(index) < integer_count_ ? kNoText : text_[static_cast<size_t>(index)];
}

} // namespace dtrace::etw::plugin::kernel
