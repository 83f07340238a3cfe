// uprobe_attach.cpp: loading the uprobe program and attaching it to sites.
#include "uprobe_attach.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

extern "C" {
extern const unsigned char uprobe_events_bpf_object[];
extern const size_t uprobe_events_bpf_object_size;
}

namespace dtrace::live {

namespace {

constexpr const char *kSingleProgram = "uprobe_event";
constexpr const char *kMultiProgram = "uprobe_multi_event";
// Their way back for an event a program of dtrace's declines (the same kind).
constexpr const char *kSingleDeclined = "uprobe_declined_event";
constexpr const char *kMultiDeclined = "uprobe_multi_declined_event";

// uprobe_multi is newer than Debian's uapi headers and libbpf 1.1: its
// attach type and the link_create attributes are the kernel's (uapi
// linux/bpf.h of 6.6 and later), spelled here.
constexpr uint32_t kAttachUprobeMulti = 48; // BPF_TRACE_UPROBE_MULTI
// The kernel's ENOTSUPP (not in user-space errno.h): what it says of an
// instruction a uprobe cannot be placed on.
constexpr int kEnotsupp = 524;

struct UprobeMultiLinkAttr {
    uint32_t prog_fd;
    uint32_t target_fd;
    uint32_t attach_type;
    uint32_t flags;
    uint64_t path;
    uint64_t offsets;
    uint64_t ref_ctr_offsets;
    uint64_t cookies;
    uint32_t cnt;
    uint32_t multi_flags;
    uint32_t pid;
    uint32_t pad;
};
static_assert(offsetof(UprobeMultiLinkAttr, path) == 16 && offsetof(UprobeMultiLinkAttr, pid) == 56);

Result<std::unique_ptr<BpfProgramSet>> load_programs(const std::string &name, BpfLoadSettings settings, bool multi) {
    settings.before_load = [multi](bpf_object *object) {
        // Each kind's program and its way back: loaded when that kind is used.
        struct Kind {
            const char *program, *declined;
            bool multi;
        };
        for (const Kind &kind :
             {Kind{kSingleProgram, kSingleDeclined, false}, Kind{kMultiProgram, kMultiDeclined, true}}) {
            bpf_program *program = bpf_object__find_program_by_name(object, kind.program);
            bpf_program *way_back = bpf_object__find_program_by_name(object, kind.declined);
            if (!program || !way_back)
                return false;
            const bool used = kind.multi == multi;
            for (bpf_program *p : {program, way_back})
                if (bpf_program__set_autoload(p, used) != 0 ||
                    (used && multi &&
                     bpf_program__set_expected_attach_type(p, static_cast<bpf_attach_type>(kAttachUprobeMulti)) != 0))
                    return false;
        }
        return true;
    };
    return BpfProgramSet::load(std::span<const uint8_t>(uprobe_events_bpf_object, uprobe_events_bpf_object_size), name,
                               settings);
}

} // namespace

Status check_uprobes(const std::string &pmu_directory) {
    struct stat info;
    if (stat(pmu_directory.c_str(), &info) == 0 && S_ISDIR(info.st_mode))
        return Done{};
    return Error{"this kernel has no uprobes (" + pmu_directory +
                 " is missing: CONFIG_UPROBE_EVENTS): user-space probes cannot be placed with uprobes"};
}

Result<std::unique_ptr<UprobeAttacher>> UprobeAttacher::load(const std::string &name, const BpfLoadSettings &settings) {
    if (Status uprobes = check_uprobes(); !uprobes)
        return Error{uprobes.error()};
    std::unique_ptr<UprobeAttacher> attacher(new UprobeAttacher());
    // A kernel without uprobe_multi refuses the program's attach type at load.
    Result<std::unique_ptr<BpfProgramSet>> programs = load_programs(name, settings, true);
    attacher->multi_ = programs.ok();
    if (!programs)
        programs = load_programs(name, settings, false);
    if (!programs)
        return Error{programs.error()};
    attacher->programs_ = std::move(programs.value());
    attacher->uprobe_probes_fd_ = attacher->programs_->map_fd("uprobe_probes");
    attacher->slots_fd_ = attacher->programs_->map_fd("uprobe_slots");
    return attacher;
}

uint32_t UprobeAttacher::expected_attach_type() const {
    return multi_ ? kAttachUprobeMulti : 0;
}

int UprobeAttacher::declined_program_fd() const {
    return bpf_program__fd(programs_->program(multi_ ? kMultiDeclined : kSingleDeclined));
}

UprobeAttacher::~UprobeAttacher() {
    detach_all();
}

Result<size_t> UprobeAttacher::attach(const std::string &path, int64_t pid, std::span<const UprobeSite> sites,
                                      std::string *fallback) {
    if (sites.empty())
        return Error{"no uprobe sites in " + path};
    if (!multi_)
        return attach_each(path, pid, sites);
    Result<size_t> linked = attach_multi(path, pid, sites);
    if (linked || sites.size() == 1)
        return linked;
    size_t refused = 0;
    Result<size_t> each = attach_multi_each(path, pid, sites, refused);
    if (each && fallback != nullptr)
        *fallback = linked.error() + "; attached one by one instead (" + std::to_string(sites.size() - refused) +
                    " uprobes, " + std::to_string(refused) + " refused by the kernel)";
    return each;
}

int UprobeAttacher::link_multi(const std::string &path, int64_t pid, std::span<const UprobeSite> sites) const {
    std::vector<uint64_t> offsets, cookies;
    offsets.reserve(sites.size());
    cookies.reserve(sites.size());
    for (const UprobeSite &site : sites) {
        offsets.push_back(site.file_offset);
        cookies.push_back(site.cookie);
    }
    UprobeMultiLinkAttr attr{};
    attr.prog_fd = static_cast<uint32_t>(bpf_program__fd(programs_->program(kMultiProgram)));
    attr.attach_type = kAttachUprobeMulti;
    attr.path = reinterpret_cast<uint64_t>(path.c_str());
    attr.offsets = reinterpret_cast<uint64_t>(offsets.data());
    attr.cookies = reinterpret_cast<uint64_t>(cookies.data());
    attr.cnt = static_cast<uint32_t>(sites.size());
    attr.pid = pid > 0 ? static_cast<uint32_t>(pid) : 0;
    return static_cast<int>(syscall(__NR_bpf, BPF_LINK_CREATE, &attr, sizeof attr));
}

Result<size_t> UprobeAttacher::attach_multi(const std::string &path, int64_t pid, std::span<const UprobeSite> sites) {
    const int fd = link_multi(path, pid, sites);
    if (fd < 0) {
        const int e = errno;
        return Error{"cannot attach " + std::to_string(sites.size()) + " uprobes to " + path + ": " + std::strerror(e)};
    }
    Attachment attachment;
    attachment.link_fds.push_back(fd);
    attachments_.push_back(std::move(attachment));
    return attachments_.size() - 1;
}

Result<size_t> UprobeAttacher::attach_multi_each(const std::string &path, int64_t pid,
                                                 std::span<const UprobeSite> sites, size_t &refused) {
    Attachment attachment;
    for (const UprobeSite &site : sites) {
        const int fd = link_multi(path, pid, std::span(&site, 1));
        if (fd >= 0) {
            attachment.link_fds.push_back(fd);
            continue;
        }
        const int e = errno;
        if (e == kEnotsupp || e == EINVAL) {
            refused++;
            continue;
        }
        for (int done : attachment.link_fds)
            close(done);
        return Error{"cannot attach a uprobe to " + path + " at offset " + std::to_string(site.file_offset) + ": " +
                     std::strerror(e)};
    }
    attachments_.push_back(std::move(attachment));
    return attachments_.size() - 1;
}

Result<size_t> UprobeAttacher::attach_each(const std::string &path, int64_t pid, std::span<const UprobeSite> sites) {
    Attachment attachment;
    bpf_program *program = programs_->program(kSingleProgram);
    for (const UprobeSite &site : sites) {
        LIBBPF_OPTS(bpf_uprobe_opts, opts, .bpf_cookie = site.cookie);
        bpf_link *link = bpf_program__attach_uprobe_opts(program, pid > 0 ? static_cast<pid_t>(pid) : -1, path.c_str(),
                                                         site.file_offset, &opts);
        if (link == nullptr) {
            const int e = errno;
            for (bpf_link *done : attachment.links)
                bpf_link__destroy(done);
            return Error{"cannot attach a uprobe to " + path + " at offset " + std::to_string(site.file_offset) + ": " +
                         std::strerror(e)};
        }
        attachment.links.push_back(link);
    }
    attachments_.push_back(std::move(attachment));
    return attachments_.size() - 1;
}

void UprobeAttacher::detach(size_t index) {
    if (index >= attachments_.size())
        return;
    Attachment &attachment = attachments_[index];
    for (int fd : attachment.link_fds)
        close(fd);
    attachment.link_fds.clear();
    for (bpf_link *link : attachment.links)
        bpf_link__destroy(link);
    attachment.links.clear();
}

void UprobeAttacher::detach_all() {
    for (size_t i = 0; i < attachments_.size(); ++i)
        detach(i);
}

Status UprobeAttacher::configure(uint32_t slot, const live_probe_config &config, const uprobe_probe_config &uconfig) {
    if (slot >= UPROBE_MAX_SLOTS)
        return Error{"more than " + std::to_string(UPROBE_MAX_SLOTS) + " user-space probes"};
    std::string bytes(reinterpret_cast<const char *>(&config), sizeof config);
    bytes.append(reinterpret_cast<const char *>(&uconfig), sizeof uconfig);
    auto known = std::find(configurations_.begin(), configurations_.end(), bytes);
    uint32_t index = static_cast<uint32_t>(known - configurations_.begin()) + 1;
    if (known == configurations_.end()) {
        if (index >= LIVE_MAX_PROBES)
            return Error{"more than " + std::to_string(LIVE_MAX_PROBES - 1) +
                         " different user-space probe configurations (arguments, filters)"};
        if (Status done = programs_->configure(index, config); !done)
            return done;
        if (bpf_map_update_elem(uprobe_probes_fd_, &index, &uconfig, BPF_ANY) != 0)
            return Error{"cannot configure uprobes: " + std::string(std::strerror(errno))};
        configurations_.push_back(std::move(bytes));
    }
    return set_slot(slot, index);
}

void UprobeAttacher::disarm(uint32_t slot) {
    if (slot < UPROBE_MAX_SLOTS)
        (void)set_slot(slot, 0);
}

Status UprobeAttacher::set_slot(uint32_t slot, uint32_t configuration) {
    if (slot >= slot_configurations_.size())
        slot_configurations_.resize(slot + 1, 0);
    if (slot_configurations_[slot] == configuration)
        return Done{}; // the map's entries start at 0
    if (bpf_map_update_elem(slots_fd_, &slot, &configuration, BPF_ANY) != 0)
        return Error{"cannot configure uprobe slot " + std::to_string(slot) + ": " + std::strerror(errno)};
    slot_configurations_[slot] = configuration;
    return Done{};
}

bool split_uprobe_event(std::span<const uint8_t> record, UprobeEvent &out) {
    live_record header;
    if (record.size() < sizeof header)
        return false;
    std::memcpy(&header, record.data(), sizeof header);
    if (header.size < sizeof header || header.size > record.size())
        return false;
    out.live = record.first(header.size);
    out.has_tail = record.size() > header.size;
    out.tail = uprobe_tail{};
    out.fetched = {};
    out.stack = {};
    if (!out.has_tail)
        return true;
    if (record.size() - header.size < sizeof(uprobe_tail))
        return false;
    std::memcpy(&out.tail, record.data() + header.size, sizeof out.tail);
    const size_t fetched_at = header.size + sizeof(uprobe_tail);
    if (out.tail.nfetched > UPROBE_MAX_FETCHES || out.tail.fetch_bytes > record.size() - fetched_at)
        return false;
    out.fetched = record.subspan(fetched_at, out.tail.fetch_bytes);
    const size_t stack_at = fetched_at + out.tail.fetch_bytes;
    if (out.tail.stack_size > record.size() - stack_at)
        return false;
    out.stack = record.subspan(stack_at, out.tail.stack_size);
    return true;
}

} // namespace dtrace::live
