// kernel_probes.cpp: the kernel providers' table, registration and enablings.
#include "kernel/kernel_probes.h"

#include <string>

#include "kernel/kernel_library.h"
#include "reader/kernel_groups.h"

namespace dtrace::etw::plugin::kernel {

namespace {

// The families (probe_family.h), in the order their probes are registered.
constexpr std::span<const KernelProbe> (*kFamilies[])() = {
    proc_family,  sched_family, io_family,      fsinfo_family,  reg_family,     pf_family,
    tcpip_family, udpip_family, dpc_isr_family, syscall_family, sampled_family, pmc_family,
};

const std::vector<KernelProbe> &all_rows() {
    static const std::vector<KernelProbe> rows = [] {
        std::vector<KernelProbe> out;
        for (auto family : kFamilies) {
            const std::span<const KernelProbe> rows = family();
            out.insert(out.end(), rows.begin(), rows.end());
        }
        return out;
    }();
    return rows;
}

constexpr std::string_view kModule = "MSNT_SystemTrace";
// The provider whose d_source carries the library (types, translators, curpsinfo).
constexpr std::string_view kLibraryProvider = "proc";

size_t slot(int klass, uint8_t opcode) {
    return static_cast<size_t>(klass) * 256 + opcode;
}

constexpr dtrace_attribute kEvolving = {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON};
constexpr dtrace_attribute kPrivate = {DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN};

} // namespace

std::span<const KernelProbe> kernel_probe_table() {
    return all_rows();
}

bool is_kernel_provider(std::string_view name) {
    for (const KernelProbe &p : all_rows()) {
        if (p.provider == name) {
            return true;
        }
    }
    return false;
}

KernelProbes::KernelProbes()
    : table_(all_rows()), ids_(table_.size(), 0), enabled_(new std::atomic<dtrace_probe_id>[table_.size()]),
      rows_(kClassSlots * 256) {
    for (size_t i = 0; i < table_.size(); ++i) {
        enabled_[i].store(0);
        const KernelProbe &p = table_[i];
        for (size_t j = 0; j < p.opcodes.size() && (j == 0 || p.opcodes[j] != 0); ++j) {
            rows_[slot(static_cast<int>(p.klass), p.opcodes[j])].push_back(static_cast<uint16_t>(i));
        }
    }
}

bool KernelProbes::register_all(dtrace_host *host, const dtrace_host_ops *ops) {
    std::string_view provider_name;
    dtrace_provider_id provider = 0;
    const std::string module(kModule);
    for (size_t i = 0; i < table_.size(); ++i) {
        const KernelProbe &p = table_[i];
        if (p.provider != provider_name) { // the table keeps each provider's rows together
            provider_name = p.provider;
            const std::string name(provider_name);
            const dtrace_provider_info info = {
                .struct_size = sizeof info,
                .name = name.c_str(),
                .attributes = {kEvolving, kPrivate, kPrivate, kEvolving, kEvolving},
                .d_source = provider_name == kLibraryProvider ? kernel_d_library().c_str() : nullptr,
            };
            provider = ops->register_provider(host, &info);
            if (provider == 0) {
                return false;
            }
        }
        const std::string function(
            kernel_class_name(kernel_class_guid(static_cast<uint16_t>(static_cast<unsigned>(p.klass) << 8))));
        const std::string name(p.name);
        const std::span<const dtrace_arg_desc> args = p.args;
        const dtrace_probe_desc desc = {
            .struct_size = sizeof desc,
            .module = module.c_str(),
            .function = function.c_str(),
            .name = name.c_str(),
            .nargs = static_cast<uint32_t>(args.size()),
            .args = args.data(),
            .cookie = kKernelCookieBase + i,
        };
        ids_[i] = ops->register_probe(host, provider, &desc);
        if (ids_[i] == 0) {
            return false;
        }
    }
    return true;
}

bool KernelProbes::set_enabled(uint64_t cookie, bool enabled) {
    if (cookie < kKernelCookieBase || cookie - kKernelCookieBase >= table_.size()) {
        return false;
    }
    const size_t row = cookie - kKernelCookieBase;
    const dtrace_probe_id now = enabled ? ids_[row] : 0;
    const dtrace_probe_id before = enabled_[row].exchange(now, std::memory_order_acq_rel);
    if ((before != 0) != (now != 0)) {
        enabled_in_class_[static_cast<size_t>(table_[row].klass)].fetch_add(now != 0 ? 1u : ~0u);
    }
    return true;
}

std::span<const uint16_t> KernelProbes::rows(int klass, uint8_t opcode) const {
    return rows_[slot(klass, opcode)];
}

} // namespace dtrace::etw::plugin::kernel
