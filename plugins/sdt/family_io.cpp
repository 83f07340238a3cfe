// family_io.cpp: io — block device requests, over block:block_rq_issue and
// block:block_rq_complete: bufinfo_t, devinfo_t, fileinfo_t.
//
// | probe | tracepoint          | arguments                                             |
// |-------|---------------------|-------------------------------------------------------|
// | start | block_rq_issue      | bufinfo_t * (flags from rwbs, bytes, sector), devinfo_t *, fileinfo_t * |
// | done  | block_rq_complete   | the same, B_DONE set, b_error the request's error      |
//
// The block layer does not know the file behind a request: fileinfo_t
// reads as DTrace's "<none>". start fires in the context that issued the
// request (the writer for a direct write, often a kworker otherwise), done
// in whatever context completed it (interrupt): match them by b_edev and
// b_blkno. Not here: wait-start, wait-done (no tracepoint).
#include <map>
#include <string>

#include "probe_family.h"
#include "tracefs.h"

namespace dtrace::sdt {

namespace {

constexpr uint64_t kSectorBytes = 512;
constexpr unsigned kMinorBits = 20; // the kernel's dev_t: major << 20 | minor
constexpr uint64_t kMinorMask = (1u << kMinorBits) - 1;
const std::string kNoFile = "<none>";
const std::string kUnknown = "<unknown>";

// What /sys says of a block device: its name and its disk's.
struct BlockDevice {
    std::string name; // DEVNAME: vda, vda1, nvme0n1p2
    std::string disk; // the whole disk's name (the same for a disk)
};

std::string devname_of(const std::string &uevent_path) {
    live::Result<std::string> text = live::read_text_file(uevent_path);
    if (!text)
        return {};
    const std::string &t = text.value();
    const size_t at = t.find("DEVNAME=");
    if (at == std::string::npos)
        return {};
    const size_t end = t.find('\n', at);
    return t.substr(at + 8, end == std::string::npos ? std::string::npos : end - at - 8);
}

// Cached per device (builders run on the plugin's one delivering thread).
const BlockDevice &block_device(uint64_t major, uint64_t minor) {
    static std::map<uint64_t, BlockDevice> devices;
    const uint64_t key = major << kMinorBits | minor;
    if (auto found = devices.find(key); found != devices.end())
        return found->second;
    const std::string dir = "/sys/dev/block/" + std::to_string(major) + ":" + std::to_string(minor);
    BlockDevice device;
    device.name = devname_of(dir + "/uevent");
    device.disk = devname_of(dir + "/../uevent"); // a partition's parent is its disk
    if (device.disk.empty())
        device.disk = device.name;
    return devices.emplace(key, std::move(device)).first->second;
}

// The fields of each row's list: four both tracepoints have, then the
// issue's byte count or the completion's error.
enum Field : size_t { Dev, Sector, NrSector, Rwbs, Bytes, Error = Bytes };
constexpr std::string_view kIssueFields[] = {"dev", "sector", "nr_sector", "rwbs", "bytes"};
constexpr std::string_view kCompleteFields[] = {"dev", "sector", "nr_sector", "rwbs", "error"};

constexpr dtrace_arg_desc kIoArgs[] = {probe_arg("sdt_bufinfo_t *", 0, "bufinfo_t *"),
                                       probe_arg("sdt_devinfo_t *", 1, "devinfo_t *"),
                                       probe_arg("live_fileinfo_t *", 2, "fileinfo_t *")};

size_t io_args(const ArgContext &c, ProbeArgs &a, bool done) {
    RecordMemory &memory = c.memory;
    const uint64_t dev = c.u(Dev), major = dev >> kMinorBits, minor = dev & kMinorMask;
    const std::string_view rwbs = c.text(Rwbs);
    const uint64_t bytes = done ? c.u(NrSector) * kSectorBytes : c.u(Bytes);
    Record &b = memory.record(a[0]);
    b[buf::b_flags] = (rwbs.find('R') != std::string_view::npos   ? kBufRead
                       : rwbs.find('W') != std::string_view::npos ? kBufWrite
                                                                  : 0) |
                      (done ? kBufDone : 0);
    b[buf::b_bcount] = bytes;
    b[buf::b_bufsize] = bytes;
    b[buf::b_blkno] = c.u(Sector);
    b[buf::b_lblkno] = c.u(Sector);
    // The kernel's is -errno; negated as unsigned (a malformed record's INT64_MIN has no signed negation).
    b[buf::b_error] = done ? 0 - static_cast<uint64_t>(c.i(Error)) : 0;
    b[buf::b_edev] = dev;
    const BlockDevice &device = block_device(major, minor);
    Record &d = memory.record(a[1]);
    d[dev::dev_major] = major;
    d[dev::dev_minor] = minor;
    d[dev::dev_instance] = minor;
    d[dev::dev_name] = memory.text(device.disk.empty() ? kUnknown : device.disk);
    d[dev::dev_statname] = memory.text(device.name.empty() ? kUnknown : device.name);
    d[dev::dev_pathname] = memory.text(device.name.empty() ? kUnknown : "/dev/" + device.name);
    Record &f = memory.record(a[2]);
    f[fi::fi_name] = memory.text(kNoFile);
    f[fi::fi_dirname] = f[fi::fi_name];
    f[fi::fi_pathname] = f[fi::fi_name];
    f[fi::fi_fs] = memory.text(kUnknown);
    f[fi::fi_mount] = f[fi::fi_fs];
    f[fi::fi_offset] = static_cast<uint64_t>(-1);
    return 3;
}

size_t io_start(const ArgContext &c, ProbeArgs &a) {
    return io_args(c, a, false);
}
size_t io_done(const ArgContext &c, ProbeArgs &a) {
    return io_args(c, a, true);
}

using S = EventSource;
constexpr StableProbe kRows[] = {
    {"io", "start", S::Tracepoint, "block", "block_rq_issue", kIssueFields, kIoArgs, io_start},
    {"io", "done", S::Tracepoint, "block", "block_rq_complete", kCompleteFields, kIoArgs, io_done},
};

} // namespace

std::span<const StableProbe> io_family() {
    return kRows;
}

} // namespace dtrace::sdt
