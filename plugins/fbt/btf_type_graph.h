// btf_type_graph.h: one kernel type described for the SDK's lookup_type, as
// a small graph of dtrace_type_nodes built from BTF.
//
// The graph holds the asked-for type whole (a struct with its members, a
// typedef with what it names), and anonymous structs, unions and enums
// inline; every named struct, union or enum it meets is only named
// (DTRACE_TYPE_NAMED "struct dentry"), so the compiler asks for it again
// when a program uses its members: a script touching three structs converts
// three, not the kernel's tens of thousands.
#pragma once

#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

#include <dtrace/provider.h>

#include "kernel_btf.h"

struct btf_type;

namespace dtrace::fbt {

class BtfTypeGraph {
  public:
    // Describes `spelling` ("struct file", "enum pid_type", "loff_t",
    // "_Bool"); null when the BTF has no such type. The graph is valid
    // until the next call.
    const dtrace_type_graph *describe(const BtfSet &types, const std::string &spelling);

  private:
    uint32_t node_for(uint32_t id, bool whole);
    uint32_t add(dtrace_type_node node);
    void add_members(uint32_t index, const btf_type *t, uint64_t base_bits);
    const char *keep(std::string text);
    void finish();

    const BtfSet *set_ = nullptr;
    std::vector<dtrace_type_node> nodes_;
    std::vector<std::vector<dtrace_type_member>> members_;         // per node
    std::vector<std::vector<dtrace_type_enumerator>> enumerators_; // per node
    std::deque<std::string> strings_;
    std::unordered_map<uint32_t, uint32_t> done_; // BTF id -> node
    dtrace_type_graph graph_{};
};

} // namespace dtrace::fbt
