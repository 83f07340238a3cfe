// tracepoint_links.cpp: shared tracepoint attachments (see tracepoint_links.h).
#include "tracepoint_links.h"

namespace dtrace::sdt {

namespace {
constexpr const char *kTracepointProgram = "sdt_tracepoint";
}

live::Result<uint32_t> TracepointLinks::link_for(const std::string &group, const std::string &event) {
    const std::string name = group + ":" + event;
    if (auto found = by_name_.find(name); found != by_name_.end())
        return found->second;
    const uint32_t link = count_.load(std::memory_order_relaxed);
    if (link == kMaxLinks)
        return live::Error{"more than " + std::to_string(kMaxLinks) + " kernel tracepoints enabled at once"};
    links_[link].group = group;
    links_[link].event = event;
    count_.store(link + 1, std::memory_order_release);
    by_name_.emplace(name, link);
    return link;
}

live::Status TracepointLinks::add(live::BpfProgramSet &bpf, uint32_t link, uint32_t slot) {
    Link &l = links_[link];
    std::atomic<uint32_t> *free = nullptr;
    for (std::atomic<uint32_t> &m : l.members) {
        if (m.load() == slot)
            return live::Done{};
        if (free == nullptr && m.load() == kNoMember)
            free = &m;
    }
    if (free == nullptr)
        return live::Error{"more than " + std::to_string(kMaxMembers) + " probes on the tracepoint " + l.group + ":" +
                           l.event};
    if (!l.attachment) {
        live::Result<size_t> attached = bpf.attach_tracepoint(kTracepointProgram, l.group, l.event, config_slot(link));
        if (!attached)
            return live::Error{attached.error()};
        l.attachment = attached.value();
    }
    free->store(slot, std::memory_order_release);
    return live::Done{};
}

void TracepointLinks::remove(live::BpfProgramSet &bpf, uint32_t link, uint32_t slot) {
    Link &l = links_[link];
    bool others = false;
    for (std::atomic<uint32_t> &m : l.members) {
        if (m.load() == slot)
            m.store(kNoMember, std::memory_order_release);
        else if (m.load() != kNoMember)
            others = true;
    }
    if (!others && l.attachment) {
        bpf.detach(*l.attachment);
        l.attachment.reset();
    }
}

void TracepointLinks::forget_attachments() {
    for (uint32_t i = 0; i < count_.load(); ++i)
        links_[i].attachment.reset();
}

} // namespace dtrace::sdt
