// traced_process.cpp: a traced process's shared memory, hooks and rings.
#include "traced_process.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <thread>
#include <unistd.h>

#include "injector.h"
#include "ring_reader.h"

namespace dtrace::fpid {

namespace {

constexpr auto kDetachWait = std::chrono::seconds(1);

} // namespace

TracedProcess::~TracedProcess() {
    if (shm_ != nullptr)
        munmap(shm_, shm_size_);
    if (!shm_name_.empty())
        shm_unlink(shm_name_.c_str());
}

live::Result<uint32_t> TracedProcess::hook(const TracedFunction &function, uint32_t flags) {
    for (uint32_t i = 0; i < hooks_.size(); i++) {
        if (hooks_[i].function.module_path == function.module_path &&
            hooks_[i].function.file_offset == function.file_offset) {
            hooks_[i].flags |= flags;
            return i;
        }
    }
    if (shm_ != nullptr && !link_map_changed())
        return live::Error{"fpid probes cannot be enabled once tracing has started"};
    if (hooks_.size() == FPID_MAX_HOOKS)
        return live::Error{"more than " + std::to_string(FPID_MAX_HOOKS) + " functions hooked in process " +
                           std::to_string(pid_)};
    hooks_.push_back({function, flags});
    return static_cast<uint32_t>(hooks_.size() - 1);
}

live::Status TracedProcess::create_shared_memory(uint32_t ring_bytes) {
    shm_name_ = FPID_SHM_PREFIX + std::to_string(pid_);
    int fd = shm_open(shm_name_.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0 && errno == EEXIST) {
        // Left by a dtrace that was killed? Only a living one keeps it.
        int old = shm_open(shm_name_.c_str(), O_RDONLY | O_CLOEXEC, 0);
        fpid_shm header{};
        const bool alive = old >= 0 && read(old, &header, sizeof header) == static_cast<ssize_t>(sizeof header) &&
                           header.dtrace_pid > 0 && kill(header.dtrace_pid, 0) == 0;
        if (old >= 0)
            close(old);
        if (alive) {
            std::string name = shm_name_;
            shm_name_.clear();
            return live::Error{"process " + std::to_string(pid_) + " is already traced by fpid (dtrace pid " +
                               std::to_string(header.dtrace_pid) + ", /dev/shm" + name + ")"};
        }
        shm_unlink(shm_name_.c_str());
        fd = shm_open(shm_name_.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    }
    if (fd < 0) {
        shm_name_.clear();
        return live::Error{"cannot create /dev/shm" + std::string(FPID_SHM_PREFIX) + std::to_string(pid_) + ": " +
                           std::strerror(errno)};
    }
    shm_size_ = fpid_shm_size(ring_bytes);
    void *p = MAP_FAILED;
    if (ftruncate(fd, static_cast<off_t>(shm_size_)) == 0)
        p = mmap(nullptr, shm_size_, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    const int error = errno;
    close(fd);
    if (p == MAP_FAILED)
        return live::Error{"cannot map the fpid rings (" + std::to_string(shm_size_ >> 20) +
                           " MB): " + std::strerror(error)};
    shm_ = static_cast<fpid_shm *>(p);
    return live::Done{};
}

live::Status TracedProcess::attach(const std::string &agent_path, uint32_t ring_bytes, uint32_t stack_frames,
                                   const std::optional<TracedFunction> &link_map_hook) {
    if (live::Status made = create_shared_memory(ring_bytes); !made)
        return made;
    shm_->magic = FPID_SHM_MAGIC;
    shm_->version = FPID_SHM_VERSION;
    shm_->dtrace_pid = getpid();
    shm_->target_pid = static_cast<int32_t>(pid_);
    shm_->ring_bytes = ring_bytes;
    ring_bytes_ = ring_bytes;
    shm_->stack_frames = stack_frames;
    if (live::Status entered = run_to_entry_point(); !entered)
        return entered;
    if (live::Status filled = fill_hook_table(link_map_hook); !filled)
        return filled;
    live::Status injected = inject_agent(pid_, agent_path);
    // Mapped by the agent (or never to be): the name is no longer needed.
    shm_unlink(shm_name_.c_str());
    shm_name_.clear();
    if (!injected)
        return injected;
    switch (__atomic_load_n(&shm_->agent_state, __ATOMIC_ACQUIRE)) {
    case FPID_AGENT_HOOKED:
        return live::Done{};
    case FPID_AGENT_FAILED:
        return live::Error{"the agent could not hook process " + std::to_string(pid_) + ": " +
                           std::string(shm_->agent_error, strnlen(shm_->agent_error, sizeof shm_->agent_error))};
    default:
        return live::Error{"the agent loaded into process " + std::to_string(pid_) + " but did not start"};
    }
}

live::Status TracedProcess::run_to_entry_point() {
    if (grabbed_ || at_entry_)
        return live::Done{};
    at_entry_ = true;
    return run_to_entry(pid_);
}

void TracedProcess::place(uint32_t index, uint64_t address) {
    HookSlot &slot = hooks_[index];
    slot.address = address;
    shm_->hooks[index].address = address;
    shm_->hooks[index].flags = slot.flags;
    shm_->hooks[index].patch_length = slot.function.patch_length;
    shm_->hooks[index].status = FPID_HOOK_PENDING;
}

live::Status TracedProcess::fill_hook_table(const std::optional<TracedFunction> &link_map_hook) {
    const ProcessAddresses addresses(pid_);
    for (uint32_t i = 0; i < hooks_.size(); i++) {
        const TracedFunction &f = hooks_[i].function;
        const uint64_t address = addresses.of(f.module_path, f.file_offset);
        if (address == 0)
            return live::Error{"cannot hook " + f.module + "`" + f.name + ": " + f.module_path +
                               " is not mapped in process " + std::to_string(pid_)};
        place(i, address);
    }
    shm_->nhooks = static_cast<uint32_t>(hooks_.size());
    if (link_map_hook) {
        shm_->link_map_hook = addresses.of(link_map_hook->module_path, link_map_hook->file_offset);
        shm_->link_map_patch_length = link_map_hook->patch_length;
    }
    __atomic_store_n(&shm_->state, FPID_STATE_READY, __ATOMIC_RELEASE);
    return live::Done{};
}

bool TracedProcess::link_map_changed() const {
    return shm_ != nullptr && !exited_ &&
           __atomic_load_n(&shm_->link_map_requests, __ATOMIC_ACQUIRE) !=
               __atomic_load_n(&shm_->link_map_answers, __ATOMIC_RELAXED);
}

void TracedProcess::answer_link_map() {
    const uint32_t request = __atomic_load_n(&shm_->link_map_requests, __ATOMIC_ACQUIRE);
    const ProcessAddresses addresses(pid_);
    for (uint32_t i = 0; i < hooks_.size(); i++) {
        const uint64_t address = addresses.of(hooks_[i].function.module_path, hooks_[i].function.file_offset);
        if (hooks_[i].address != 0 && hooks_[i].address != address) {
            // Unloaded: the agent forgets it, so that no bytes are ever
            // written back where another library may be mapped now.
            shm_->hooks[i].status = FPID_HOOK_UNMAPPED;
            hooks_[i].address = 0;
        }
        if (hooks_[i].address == 0 && address != 0) {
            place(i, address);
            placed_late_.push_back(i);
        }
    }
    __atomic_store_n(&shm_->nhooks, static_cast<uint32_t>(hooks_.size()), __ATOMIC_RELEASE);
    __atomic_store_n(&shm_->link_map_answers, request, __ATOMIC_RELEASE);
    // The agent waits on the word in its own mapping of the file: a shared futex.
    syscall(SYS_futex, &shm_->link_map_answers, FUTEX_WAKE, INT_MAX, nullptr, nullptr, 0);
}

std::vector<std::string> TracedProcess::late_refusals() {
    std::vector<std::string> refusals;
    std::erase_if(placed_late_, [&](uint32_t i) {
        const uint32_t status = __atomic_load_n(&shm_->hooks[i].status, __ATOMIC_ACQUIRE);
        if (status == FPID_HOOK_REFUSED)
            refusals.push_back("cannot hook " + hooks_[i].function.module + "`" + hooks_[i].function.name + ": " +
                               std::string(shm_->agent_error, strnlen(shm_->agent_error, sizeof shm_->agent_error)));
        return status != FPID_HOOK_PENDING;
    });
    return refusals;
}

void TracedProcess::detach() {
    if (shm_ == nullptr)
        return;
    __atomic_store_n(&shm_->state, FPID_STATE_DETACH, __ATOMIC_RELEASE);
    const auto deadline = std::chrono::steady_clock::now() + kDetachWait;
    while (!exited_ && kill(static_cast<pid_t>(pid_), 0) == 0 &&
           __atomic_load_n(&shm_->agent_state, __ATOMIC_ACQUIRE) == FPID_AGENT_HOOKED &&
           std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
}

fpid_ring *TracedProcess::ring(uint32_t index) const {
    return reinterpret_cast<fpid_ring *>(reinterpret_cast<uint8_t *>(shm_) +
                                         fpid_ring_offset(static_cast<uint32_t>(ring_bytes_), index));
}

void TracedProcess::read_ring(uint32_t r, std::vector<Hit> &out) {
    fpid_ring *ring = this->ring(r);
    const uint8_t *data = reinterpret_cast<const uint8_t *>(ring + 1);
    const uint64_t head = __atomic_load_n(&ring->head, __ATOMIC_ACQUIRE);
    tails_[r] = read_records(std::span<const uint8_t>(data, ring_bytes_), tails_[r], head,
                             static_cast<uint32_t>(hooks_.size()), ring->tid, out);
}

uint64_t TracedProcess::drain(const std::function<void(const Hit &)> &deliver) {
    if (shm_ == nullptr)
        return 0;
    std::vector<Hit> pending;
    uint32_t rings_with_records = 0;
    uint64_t drops = __atomic_load_n(&shm_->ring_overflow, __ATOMIC_RELAXED);
    const uint32_t claimed = std::min(__atomic_load_n(&shm_->rings_claimed, __ATOMIC_ACQUIRE), FPID_MAX_RINGS);
    for (uint32_t r = 0; r < claimed; r++) {
        fpid_ring *ring = this->ring(r);
        if (__atomic_load_n(&ring->claimed, __ATOMIC_ACQUIRE) == 0)
            continue;
        drops += __atomic_load_n(&ring->drops, __ATOMIC_RELAXED);
        const size_t before = pending.size();
        read_ring(r, pending);
        rings_with_records += pending.size() > before;
    }
    // In time order across threads (records without a time stamp keep their ring's order).
    if (rings_with_records > 1)
        std::stable_sort(pending.begin(), pending.end(), [](const Hit &a, const Hit &b) { return a.tsc < b.tsc; });
    for (const Hit &hit : pending)
        deliver(hit);
    for (uint32_t r = 0; r < claimed; r++)
        __atomic_store_n(&ring(r)->tail, tails_[r], __ATOMIC_RELEASE);
    const uint64_t lost = drops > drops_seen_ ? drops - drops_seen_ : 0; // the process's own counters
    drops_seen_ = std::max(drops, drops_seen_);
    return lost;
}

} // namespace dtrace::fpid
