// plugin_entry.h: a plugin's SDK entry points made from its C++ class.
//
// The SDK calls C functions over an opaque state. Every plugin needs the
// same glue: cast the state back to the plugin object, run the method, and
// turn a C++ exception (memory exhaustion, mostly) into report_error() and a
// failed call so that no exception crosses into the host. entry_ops<Plugin>()
// writes that glue once, for any class shaped like this:
//
//   Plugin(dtrace_host *, const dtrace_host_ops *);
//   int init();                                     // registers providers
//   dtrace_host *host() const; const dtrace_host_ops *ops() const;
//   int provide(const dtrace_probe_spec *);
//   int enable(dtrace_probe_id, uint64_t cookie);
//   void disable(dtrace_probe_id, uint64_t cookie);
//   int start(); void stop();
//
// and, each only when the class has it (the entry stays NULL otherwise):
// set_filters, lookup_symbol, target_changed, lookup_type,
// lookup_kernel_symbol, add_live_timer/remove_live_timer, consume_action,
// arg_info, resolve_counter/read_counter (read_counter noexcept: it runs
// in probe context), with the SDK's signatures minus the state, and the
// fast path (the table dtrace_plugin_ops.fastpath points to: see
// EntryPoints' fast path below). The caller fills in name, description,
// options and the rest of dtrace_plugin_ops.
#ifndef DTRACE_PLUGINS_COMMON_PLUGIN_ENTRY_H
#define DTRACE_PLUGINS_COMMON_PLUGIN_ENTRY_H

#include <exception>
#include <memory>
#include <span>

#include <dtrace/provider.h>

namespace dtrace::plugin_common {

// Runs an entry point's body; an exception becomes a reported error and -1.
template <typename Body> int guarded(dtrace_host *host, const dtrace_host_ops *ops, Body body) {
    try {
        return body();
    } catch (const std::exception &e) {
        ops->report_error(host, e.what());
        return -1;
    }
}

template <typename Plugin> struct EntryPoints {
    static Plugin &self(void *state) { return *static_cast<Plugin *>(state); }

    // Runs a method of the plugin behind `state` under guarded().
    template <typename Body> static int run(void *state, Body body) {
        Plugin &p = self(state);
        return guarded(p.host(), p.ops(), [&] { return body(p); });
    }

    static int init(dtrace_host *host, const dtrace_host_ops *ops, void **state) {
        return guarded(host, ops, [&] {
            auto plugin = std::make_unique<Plugin>(host, ops);
            if (plugin->init() != 0)
                return -1;
            *state = plugin.release();
            return 0;
        });
    }
    static int provide(void *state, const dtrace_probe_spec *spec) {
        return run(state, [&](Plugin &p) { return p.provide(spec); });
    }
    static int enable(void *state, dtrace_probe_id probe, uint64_t cookie) {
        return run(state, [&](Plugin &p) { return p.enable(probe, cookie); });
    }
    static void disable(void *state, dtrace_probe_id probe, uint64_t cookie) {
        run(state, [&](Plugin &p) {
            p.disable(probe, cookie);
            return 0;
        });
    }
    static int start(void *state) {
        return run(state, [](Plugin &p) { return p.start(); });
    }
    static void stop(void *state) { self(state).stop(); }
    static void destroy(void *state) { delete &self(state); }

    static int set_filters(void *state, dtrace_probe_id probe, uint64_t cookie, uint32_t n, const dtrace_filter *f) {
        return run(state, [&](Plugin &p) { return p.set_filters(probe, cookie, n, f); });
    }
    // Symbol and type lookups fail quietly: a name left unknown is no error.
    static int lookup_symbol(void *state, uint32_t space, int64_t pid, uint64_t address, dtrace_symbol *out) {
        try {
            return self(state).lookup_symbol(space, pid, address, out);
        } catch (const std::exception &) {
            return -1;
        }
    }
    static int lookup_type(void *state, const char *name, const dtrace_type_graph **out) {
        try {
            return self(state).lookup_type(name, out);
        } catch (const std::exception &) {
            return -1;
        }
    }
    static int lookup_kernel_symbol(void *state, const char *module, const char *name, dtrace_kernel_symbol *out) {
        try {
            return self(state).lookup_kernel_symbol(module, name, out);
        } catch (const std::exception &) {
            return -1;
        }
    }
    static void target_changed(void *state, int64_t pid, uint32_t new_state) {
        run(state, [&](Plugin &p) {
            p.target_changed(pid, new_state);
            return 0;
        });
    }
    static int add_live_timer(void *state, dtrace_probe_id probe, uint64_t interval_ns, uint32_t flags) {
        return run(state, [&](Plugin &p) { return p.add_live_timer(probe, interval_ns, flags); });
    }
    static void remove_live_timer(void *state, dtrace_probe_id probe) {
        run(state, [&](Plugin &p) {
            p.remove_live_timer(probe);
            return 0;
        });
    }
    static int consume_action(void *state, const dtrace_action_call *call) {
        return run(state, [&](Plugin &p) { return p.consume_action(call); });
    }
    static int arg_info(void *state, dtrace_probe_id probe, uint64_t cookie, uint32_t index, dtrace_arg_desc *out) {
        return run(state, [&](Plugin &p) { return p.arg_info(probe, cookie, index, out); });
    }
    static int resolve_counter(void *state, const char *name, uint64_t *cookie, const char **why) {
        return run(state, [&](Plugin &p) { return p.resolve_counter(name, *cookie, *why); });
    }
    static int read_counter(void *state, uint64_t cookie, const dtrace_event_ctx *ctx, uint64_t *value) {
        return self(state).read_counter(cookie, *ctx, *value);
    }

    // The in-kernel fast path (dtrace_fastpath_ops), for a class with
    // fastpath_layout, attach_fastpath_program and fastpath_loader() (its
    // live::FastpathLoader, which creates, loads and reads the maps and
    // programs: the entries that only forward are made here, once).
    static int fastpath_layout(void *state, dtrace_probe_id probe, uint64_t cookie, dtrace_fastpath_probe *out) {
        return run(state, [&](Plugin &p) { return p.fastpath_layout(probe, cookie, *out); });
    }
    static int32_t create_fastpath_map(void *state, const dtrace_bpf_map_spec *spec) {
        return run(state, [&](Plugin &p) { return p.fastpath_loader().create_map(*spec); });
    }
    // A class with load_fastpath_program loads programs itself (it chooses
    // their kind first, say); else its loader loads them as they are.
    static int32_t load_fastpath_program(void *state, const dtrace_bpf_program *program) {
        return run(state, [&](Plugin &p) {
            if constexpr (requires { &Plugin::load_fastpath_program; })
                return p.load_fastpath_program(*program);
            else
                return p.fastpath_loader().load_program(*program);
        });
    }
    static int attach_fastpath_program(void *state, int32_t program, dtrace_probe_id probe, uint64_t cookie) {
        return run(state, [&](Plugin &p) { return p.attach_fastpath_program(program, probe, cookie); });
    }
    static int read_fastpath_map(void *state, int32_t map, dtrace_bpf_map_entry_fn fn, void *arg) {
        return run(state, [&](Plugin &p) { return p.fastpath_loader().read_map(map, fn, arg); });
    }
    static int read_fastpath_ring(void *state, int32_t map, dtrace_bpf_ring_record_fn fn, void *arg) {
        return run(state, [&](Plugin &p) { return p.fastpath_loader().read_ring(map, fn, arg); });
    }
    // Optional: a class whose kSharesFastpathPrograms is true lets probes
    // share programs by their layout's probe_word (dtrace fills the maps
    // the shared program reads through update_map).
    static constexpr bool kUpdatesMaps = requires { requires Plugin::kSharesFastpathPrograms; };
    static int update_fastpath_map(void *state, int32_t map, const void *key, const void *value) {
        return run(state, [&](Plugin &p) { return p.fastpath_loader().update_map(map, key, value); });
    }
    // Optional: a class with fastpath_kernel_stack_skip lets stack() keys run in the kernel.
    static constexpr bool kSkipsKernelFrames = requires { &Plugin::fastpath_kernel_stack_skip; };
    static uint32_t fastpath_kernel_stack_skip(void *state, const uint64_t *frames, uint32_t nframes) {
        if constexpr (kSkipsKernelFrames)
            return self(state).fastpath_kernel_stack_skip(std::span<const uint64_t>(frames, nframes));
        return 0;
    }
    // Optional: a class with fastpath_fill_user_stacks gives dtrace's walk
    // of user stacks its probes' process's table (ustack() keys).
    static constexpr bool kFillsUserStacks = requires { &Plugin::fastpath_fill_user_stacks; };
    static int fastpath_fill_user_stacks(void *state, dtrace_probe_id probe, uint64_t cookie, int32_t rows,
                                         int32_t blocks, int32_t mappings) {
        if constexpr (kFillsUserStacks)
            return run(state,
                       [&](Plugin &p) { return p.fastpath_fill_user_stacks(probe, cookie, rows, blocks, mappings); });
        return -1;
    }
    // Optional: a class with fastpath_fill_way_back delivers an event
    // dtrace's program declines as without it (ustack() keys).
    static constexpr bool kHasWayBack = requires { &Plugin::fastpath_fill_way_back; };
    static int fastpath_fill_way_back(void *state, dtrace_probe_id probe, uint64_t cookie, int32_t program_array) {
        if constexpr (kHasWayBack)
            return run(state, [&](Plugin &p) { return p.fastpath_fill_way_back(probe, cookie, program_array); });
        return -1;
    }
    static constexpr dtrace_fastpath_ops fastpath_ops = {
        sizeof(dtrace_fastpath_ops),
        fastpath_layout,
        create_fastpath_map,
        load_fastpath_program,
        attach_fastpath_program,
        read_fastpath_map,
        read_fastpath_ring,
        kUpdatesMaps ? update_fastpath_map : nullptr,
        kSkipsKernelFrames ? fastpath_kernel_stack_skip : nullptr,
        kFillsUserStacks ? fastpath_fill_user_stacks : nullptr,
        kHasWayBack ? fastpath_fill_way_back : nullptr,
    };
};

// The ops table of `Plugin`: the entry points above for the methods it has.
template <typename Plugin> constexpr dtrace_plugin_ops entry_ops() {
    using E = EntryPoints<Plugin>;
    dtrace_plugin_ops ops{};
    ops.struct_size = sizeof ops;
    ops.abi_version = DTRACE_SDK_ABI_VERSION;
#ifdef DTRACE_PROJECT_VERSION
    ops.version = DTRACE_PROJECT_VERSION;
#endif
    ops.init = E::init;
    ops.provide = E::provide;
    ops.enable = E::enable;
    ops.disable = E::disable;
    ops.start = E::start;
    ops.stop = E::stop;
    ops.destroy = E::destroy;
    if constexpr (requires(Plugin & p) { &Plugin::set_filters; })
        ops.set_filters = E::set_filters;
    if constexpr (requires(Plugin & p) { &Plugin::lookup_symbol; })
        ops.lookup_symbol = E::lookup_symbol;
    if constexpr (requires(Plugin & p) { &Plugin::lookup_type; })
        ops.lookup_type = E::lookup_type;
    if constexpr (requires(Plugin & p) { &Plugin::lookup_kernel_symbol; })
        ops.lookup_kernel_symbol = E::lookup_kernel_symbol;
    if constexpr (requires(Plugin & p) { &Plugin::target_changed; })
        ops.target_changed = E::target_changed;
    if constexpr (requires(Plugin & p) { &Plugin::add_live_timer; }) {
        ops.add_live_timer = E::add_live_timer;
        ops.remove_live_timer = E::remove_live_timer;
    }
    if constexpr (requires(Plugin & p) { &Plugin::consume_action; })
        ops.consume_action = E::consume_action;
    if constexpr (requires(Plugin & p) { &Plugin::arg_info; })
        ops.arg_info = E::arg_info;
    if constexpr (requires(Plugin & p) { &Plugin::fastpath_layout; })
        ops.fastpath = &E::fastpath_ops;
    if constexpr (requires(Plugin & p) { &Plugin::read_counter; }) {
        ops.resolve_counter = E::resolve_counter;
        ops.read_counter = E::read_counter;
    }
    return ops;
}

} // namespace dtrace::plugin_common

// The exported entry point of a plugin whose ops table is `ops_table`.
#define DTRACE_PLUGIN_ENTRY(ops_table)                                                                                 \
    extern "C" DTRACE_PLUGIN_EXPORT const dtrace_plugin_ops *dtrace_plugin_entry(uint32_t host_abi_version) {          \
        return host_abi_version >= DTRACE_SDK_ABI_VERSION ? &(ops_table) : nullptr;                                    \
    }

#endif
