// recording_host.cpp: the recording host's ops table.
#include "recording_host.h"

#include <thread>

namespace dtrace::etw::test {

RecordingHost::RecordingHost() {
    ops_.struct_size = sizeof ops_;
    ops_.abi_version = DTRACE_SDK_ABI_VERSION;
    ops_.register_provider = [](dtrace_host *h, const dtrace_provider_info *info) -> dtrace_provider_id {
        RecordingHost &self = of(h);
        for (const std::string &p : self.providers) {
            if (p == info->name) {
                self.errors.push_back("provider " + p + " is already registered");
                return 0;
            }
        }
        self.providers.push_back(info->name);
        return static_cast<dtrace_provider_id>(self.providers.size());
    };
    ops_.register_probe = [](dtrace_host *h, dtrace_provider_id provider,
                             const dtrace_probe_desc *desc) -> dtrace_probe_id {
        RecordingHost &self = of(h);
        const std::string &name = self.providers.at(provider - 1);
        if (dtrace_probe_id id = self.probe(name, desc->module, desc->function, desc->name)) {
            return id;
        }
        self.probes.push_back({name, desc->module, desc->function, desc->name, desc->nargs, desc->cookie});
        return static_cast<dtrace_probe_id>(self.probes.size());
    };
    ops_.fire = [](dtrace_host *h, dtrace_probe_id probe, const dtrace_event_ctx *ctx) {
        Firing f;
        f.probe = probe;
        f.args.assign(ctx->args, ctx->args + ctx->nargs);
        for (uint64_t a : f.args) {
            std::vector<uint8_t> bytes(kMemoryPeek);
            int64_t n = ctx->read_memory ? ctx->read_memory(ctx->reader_state, a, bytes.data(), bytes.size()) : -1;
            bytes.resize(n < 0 ? 0 : static_cast<size_t>(n));
            f.memory.push_back(std::move(bytes));
        }
        f.cpu = ctx->cpu;
        f.timestamp = ctx->timestamp;
        f.walltimestamp = ctx->walltimestamp;
        f.pid = ctx->pid;
        f.ppid = ctx->ppid;
        f.tid = ctx->tid;
        f.execname = ctx->execname ? ctx->execname : "(null)";
        f.payload_size = ctx->payload_size;
        f.kernel_stack.assign(ctx->kernel_stack, ctx->kernel_stack + ctx->kernel_stack_depth);
        f.user_stack.assign(ctx->user_stack, ctx->user_stack + ctx->user_stack_depth);
        f.flags = ctx->flags;
        of(h).firings.push_back(std::move(f));
    };
    ops_.report_drops = [](dtrace_host *h, uint32_t, uint64_t count, dtrace_drop_kind kind) {
        of(h).drops.emplace_back(count, kind);
    };
    ops_.report_error = [](dtrace_host *h, const char *message) { of(h).errors.emplace_back(message); };
    ops_.get_option = [](dtrace_host *h, const char *name) -> const char * {
        auto it = of(h).options.find(name);
        return it == of(h).options.end() ? nullptr : it->second.c_str();
    };
    ops_.input_finished = [](dtrace_host *h) { ++of(h).finished; };
    ops_.probe_usage = [](dtrace_host *h, dtrace_probe_id probe, dtrace_probe_usage *out) -> int {
        auto it = of(h).usage_flags.find(probe);
        if (it == of(h).usage_flags.end()) {
            return -1;
        }
        out->flags = it->second;
        return 0;
    };
}

dtrace_probe_id RecordingHost::probe(const std::string &provider, const std::string &module,
                                     const std::string &function, const std::string &name) const {
    for (size_t i = 0; i < probes.size(); ++i) {
        const RegisteredProbe &p = probes[i];
        if (p.provider == provider && p.module == module && p.function == function && p.name == name) {
            return static_cast<dtrace_probe_id>(i + 1);
        }
    }
    return 0;
}

std::string RecordingHost::probe_name(dtrace_probe_id id) const {
    const RegisteredProbe &p = probes.at(id - 1);
    return p.provider + ":" + p.module + ":" + p.function + ":" + p.name;
}

bool RecordingHost::wait_finished() const {
    constexpr auto kTimeout = std::chrono::seconds(30);
    constexpr auto kPoll = std::chrono::milliseconds(1);
    const auto deadline = std::chrono::steady_clock::now() + kTimeout;
    while (finished.load() == 0) {
        if (std::chrono::steady_clock::now() > deadline) {
            return false;
        }
        std::this_thread::sleep_for(kPoll);
    }
    return true;
}

std::vector<Firing> RecordingHost::firings_of(dtrace_probe_id id) const {
    std::vector<Firing> out;
    for (const Firing &f : firings) {
        if (f.probe == id) {
            out.push_back(f);
        }
    }
    return out;
}

} // namespace dtrace::etw::test
