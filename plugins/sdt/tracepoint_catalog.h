// tracepoint_catalog.h: the kernel's tracepoints as the sdt plugin sees
// them: tracefs's available_events (less the groups other plugins or other
// mechanisms own: syscalls and raw_syscalls, kprobes and uprobes), and each
// event's parsed format, read once when first asked.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "result.h"
#include "tracepoint_format.h"

namespace dtrace::sdt {

struct Tracepoint {
    std::string group;
    std::string event;
};

class TracepointCatalog {
  public:
    // Every tracepoint sdt offers, sorted by group then event.
    live::Result<const std::vector<Tracepoint> *> all();
    // Whether the kernel has group:event (any group, even one sdt leaves out).
    bool exists(const std::string &group, const std::string &event);
    // The event's format (parsed once; the pointer stays valid).
    live::Result<const live::TracepointFormat *> format(const std::string &group, const std::string &event);

  private:
    std::mutex lock_;
    std::unique_ptr<std::vector<Tracepoint>> all_;
    std::map<std::pair<std::string, std::string>, std::unique_ptr<live::TracepointFormat>> formats_;
};

// Whether sdt offers the group's events (not syscalls, kprobes, uprobes).
bool sdt_offers_group(const std::string &group);

} // namespace dtrace::sdt
