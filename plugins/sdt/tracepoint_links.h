// tracepoint_links.h: one attachment of the tracepoint program per kernel
// tracepoint, shared by every probe enabled on it.
//
// A BPF program can be attached to a tracepoint only once, and several
// probes may want one tracepoint (proc:::exit and proc:::lwp-exit both
// read sched_process_exit, and sdt:sched::sched_process_exit may be
// enabled beside them). So each tracepoint has one link: its attach cookie
// is a configuration slot of its own (from the top of the live_probes map,
// kFirstConfig and up), configured with what its members need together
// (the widest filter, the largest copy), and each record it makes is
// handed to every member (slot) in turn, whose accept and builder decide.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "bpf/live_record.h"
#include "bpf_program_set.h"
#include "result.h"

namespace dtrace::sdt {

class TracepointLinks {
  public:
    static constexpr uint32_t kMaxLinks = 256;
    static constexpr uint32_t kMaxMembers = 8;
    // Configuration slots from here up are the links' (probe slots stay below).
    static constexpr uint32_t kFirstConfig = LIVE_MAX_PROBES - kMaxLinks;
    static constexpr uint32_t kNoMember = UINT32_MAX;

    TracepointLinks() : links_(std::make_unique<Link[]>(kMaxLinks)) {}

    // The link of group:event (made, not yet attached, on first use).
    live::Result<uint32_t> link_for(const std::string &group, const std::string &event);
    // Adds `slot` to the link, attaching the program at the first member.
    live::Status add(live::BpfProgramSet &bpf, uint32_t link, uint32_t slot);
    // Removes `slot`; the last member's removal detaches the program.
    void remove(live::BpfProgramSet &bpf, uint32_t link, uint32_t slot);
    // Forgets every attachment (the program set detached them all).
    void forget_attachments();

    static uint32_t config_slot(uint32_t link) { return kFirstConfig + link; }
    static bool is_config_slot(uint32_t slot) { return slot >= kFirstConfig; }
    // Calls f(member slot) for each member of the link whose config slot is given.
    template <typename F> void for_each_member(uint32_t config, F &&f) const {
        const uint32_t link = config - kFirstConfig;
        if (link >= count_.load(std::memory_order_acquire))
            return;
        for (const std::atomic<uint32_t> &m : links_[link].members) {
            const uint32_t slot = m.load(std::memory_order_acquire);
            if (slot != kNoMember)
                f(slot);
        }
    }

  private:
    struct Link {
        std::string group, event;
        std::optional<size_t> attachment;
        std::array<std::atomic<uint32_t>, kMaxMembers> members;
        Link() {
            for (auto &m : members)
                m.store(kNoMember);
        }
    };
    // Fixed storage: the delivering thread reads members while probes are enabled.
    std::unique_ptr<Link[]> links_;
    std::atomic<uint32_t> count_{0};
    std::map<std::string, uint32_t> by_name_;
};

} // namespace dtrace::sdt
