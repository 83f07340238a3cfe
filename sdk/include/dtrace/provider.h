/*
 * dtrace/provider.h: the provider plugin SDK, version 1.
 *
 * This header is the whole contract between the DTrace core and a provider
 * plugin. It is plain C so that a plugin can be written in any language that
 * can export a C function, and so that the core and a plugin built years apart
 * still agree on every byte.
 *
 * Rules that keep the ABI growable:
 *   - every struct that crosses the boundary starts with `struct_size` (and the
 *     function tables also with `abi_version`); a reader only touches fields that
 *     lie inside the size the writer declared, so fields can be appended later;
 *   - plugins never link against core symbols: the host hands them a function
 *     table (dtrace_host_ops) at load time;
 *   - strings passed to the host are copied by the host before the call returns.
 *
 * A plugin is a shared object that exports one symbol:
 *
 *     const dtrace_plugin_ops *dtrace_plugin_entry(uint32_t host_abi_version);
 *
 * returning its function table (or NULL to decline). The host refuses a table
 * whose abi_version it does not know, naming the plugin file.
 */
#ifndef DTRACE_SDK_PROVIDER_H
#define DTRACE_SDK_PROVIDER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DTRACE_SDK_ABI_VERSION 1u
#define DTRACE_PLUGIN_ENTRY_SYMBOL "dtrace_plugin_entry"

#if defined(__GNUC__)
#define DTRACE_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define DTRACE_PLUGIN_EXPORT
#endif

/* Stability levels and dependency classes, as -lv prints them. */
typedef enum dtrace_stability {
    DTRACE_STABILITY_INTERNAL = 0,
    DTRACE_STABILITY_PRIVATE,
    DTRACE_STABILITY_OBSOLETE,
    DTRACE_STABILITY_EXTERNAL,
    DTRACE_STABILITY_UNSTABLE,
    DTRACE_STABILITY_EVOLVING,
    DTRACE_STABILITY_STABLE,
    DTRACE_STABILITY_STANDARD
} dtrace_stability;

typedef enum dtrace_dependency_class {
    DTRACE_CLASS_UNKNOWN = 0,
    DTRACE_CLASS_CPU,
    DTRACE_CLASS_PLATFORM,
    DTRACE_CLASS_GROUP,
    DTRACE_CLASS_ISA,
    DTRACE_CLASS_COMMON
} dtrace_dependency_class;

typedef struct dtrace_attribute {
    uint8_t name_stability;   /* dtrace_stability */
    uint8_t data_stability;   /* dtrace_stability */
    uint8_t dependency_class; /* dtrace_dependency_class */
} dtrace_attribute;

/* The five attribute groups of a provider (see the Guide's "Stability" chapter). */
typedef struct dtrace_provider_attributes {
    dtrace_attribute provider;
    dtrace_attribute module;
    dtrace_attribute function;
    dtrace_attribute name;
    dtrace_attribute args;
} dtrace_provider_attributes;

typedef struct dtrace_host dtrace_host; /* opaque: the core's handle */
typedef uint32_t dtrace_provider_id;    /* 0 is never a valid id */
typedef uint32_t dtrace_probe_id;       /* 0 is never a valid id */

typedef struct dtrace_provider_info {
    uint32_t struct_size;
    const char *name; /* "syscall", "etw", ... */
    dtrace_provider_attributes attributes;
    /* Optional D source compiled before user programs: types, inlines,
     * translators for this provider's translated argument types. May be NULL. */
    const char *d_source;
} dtrace_provider_info;

/* One argument of a probe. */
typedef struct dtrace_arg_desc {
    uint32_t struct_size;
    const char *native_type;     /* D type of argN as the plugin supplies it, e.g. "int" */
    const char *translated_type; /* D type of args[i] after translation; NULL: same as native */
    uint8_t native_index;        /* which argN args[i] is translated from */
} dtrace_arg_desc;

typedef struct dtrace_probe_desc {
    uint32_t struct_size;
    const char *module;
    const char *function;
    const char *name;
    uint32_t nargs;              /* number of entries in args; may be 0 */
    const dtrace_arg_desc *args; /* may be NULL even when the probe takes
                                    arguments: the host then asks arg_info */
    uint64_t cookie;             /* the plugin's own value, handed back on enable */
} dtrace_probe_desc;

/* A probe description as the user wrote it: each field a glob pattern
 * (* ? [...]) or empty, which matches anything. */
typedef struct dtrace_probe_spec {
    uint32_t struct_size;
    const char *provider;
    const char *module;
    const char *function;
    const char *name;
} dtrace_probe_spec;

/* Reads memory of the traced target (copyin and friends). Returns the number
 * of bytes read, or -1 if the address is not readable. */
typedef int64_t (*dtrace_memory_read_fn)(void *reader_state, uint64_t address, void *buffer, size_t length);

/* Everything the core needs to know about one probe firing. The plugin fills
 * it on its own stack and calls fire(); there is no global "current event". */
typedef struct dtrace_event_ctx {
    uint32_t struct_size;
    uint32_t cpu;
    uint64_t timestamp;     /* ns; monotonic clock live, trace clock when replaying */
    uint64_t walltimestamp; /* ns since the Unix epoch; 0: the host derives it */
    int64_t pid;            /* -1: unknown */
    int64_t ppid;
    int64_t tid;
    int64_t uid;
    int64_t gid;
    const char *execname; /* NULL: unknown */
    uint32_t nargs;
    const uint64_t *args; /* arg0 .. arg(nargs-1); missing ones read as 0 */
    const void *payload;  /* raw event payload for replayed events; may be NULL */
    uint64_t payload_size;
    const uint64_t *kernel_stack; /* program counters, innermost first; may be NULL */
    uint32_t kernel_stack_depth;
    const uint64_t *user_stack;
    uint32_t user_stack_depth;
    dtrace_memory_read_fn read_memory; /* NULL: no memory of the target is readable */
    void *reader_state;
    uint32_t flags; /* DTRACE_EVENT_* */
} dtrace_event_ctx;

#define DTRACE_EVENT_LIVE_TARGET 0x1u /* read_memory reads a live process */
#define DTRACE_EVENT_REPLAYED 0x2u    /* the event comes from a trace file */
/* A replayed record stamped before the recorded data (a trace's header
 * records, written when the session started, which may be hours before the
 * events a file kept): it fires, but does not start or advance trace time. */
#define DTRACE_EVENT_BEFORE_DATA 0x4u

/* Drop kinds a plugin reports (events lost before they reached the host). */
typedef enum dtrace_drop_kind {
    DTRACE_DROP_PRINCIPAL = 0, /* events the source lost (ring overflow, lost records) */
    DTRACE_DROP_CORRUPT = 1,   /* input skipped as corrupt (replay) */
    DTRACE_DROP_LOGGER = 2     /* events the replayed trace's own logger lost while recording */
} dtrace_drop_kind;

/* A plugin action: a function the plugin adds to D (say etw_trace()). A call
 * to it is a recording action, as printf() is: each argument is evaluated
 * when the clause fires and recorded in the principal buffer; the consumer
 * hands the recorded values, in record order, to the plugin's
 * consume_action. */
typedef struct dtrace_action_desc {
    uint32_t struct_size;
    const char *name;      /* a D identifier that D itself does not define */
    const char *prototype; /* as D's own functions: "void(string, uint64_t, ...)";
                              "@" is an argument of any type, "[T]" optional, "..." varargs */
    uint64_t cookie;       /* the plugin's own value, handed back with each call */
} dtrace_action_desc;

/* Kinds of recorded values. */
typedef enum dtrace_value_kind {
    DTRACE_VALUE_INTEGER = 0, /* integers and pointers */
    DTRACE_VALUE_STRING = 1,  /* D strings */
    DTRACE_VALUE_BYTES = 2    /* other values recorded by reference (structs, arrays) */
} dtrace_value_kind;

/* One recorded argument of a plugin action. */
typedef struct dtrace_action_value {
    uint32_t struct_size;
    uint32_t kind;      /* dtrace_value_kind */
    uint32_t size;      /* integers: the D type's size; strings and bytes: the length
                           (a string's without its terminating NUL) */
    uint32_t is_signed; /* integers: 1 when the D type is signed */
    uint64_t integer;   /* integers: the value */
    const void *bytes;  /* strings (NUL-terminated) and bytes: valid during the call */
} dtrace_action_value;

/* One recorded call of a plugin action, as the consumer reads it back. */
typedef struct dtrace_action_call {
    uint32_t struct_size;
    uint32_t cpu;       /* the CPU whose buffer held the record */
    uint64_t timestamp; /* the firing's timestamp (ns) */
    uint64_t cookie;    /* the action's (dtrace_action_desc.cookie) */
    uint32_t nvalues;
    const dtrace_action_value *values; /* the arguments, in order */
    /* Appended (read only when struct_size covers them): the firing's
     * process and thread ids (-1: unknown). */
    int64_t pid;
    int64_t tid;
} dtrace_action_call;

/* core -> plugin: the host's services. */
typedef struct dtrace_host_ops {
    uint32_t struct_size;
    uint32_t abi_version;
    dtrace_provider_id (*register_provider)(dtrace_host *host, const dtrace_provider_info *info);
    dtrace_probe_id (*register_probe)(dtrace_host *host, dtrace_provider_id provider, const dtrace_probe_desc *desc);
    /* Looks up an existing probe; 0 if absent. */
    dtrace_probe_id (*lookup_probe)(dtrace_host *host, dtrace_provider_id provider, const char *module,
                                    const char *function, const char *name);
    /* Runs the enabled clauses of the probe. Safe from any thread. */
    void (*fire)(dtrace_host *host, dtrace_probe_id probe, const dtrace_event_ctx *ctx);
    void (*report_drops)(dtrace_host *host, uint32_t cpu, uint64_t count, dtrace_drop_kind kind);
    /* A message for the user, printed as "dtrace: <plugin>: <message>". */
    void (*report_error)(dtrace_host *host, const char *message);
    /* The value of a -x option (NULL if unset). Plugins may define their own options. */
    const char *(*get_option)(dtrace_host *host, const char *name);
    /* A replaying plugin says that its input is exhausted; the host then ends
     * the session (END fires) as at exit(). */
    void (*input_finished)(dtrace_host *host);
    /* While a trace file is replayed (-E), fires `probe` every `interval_ns`
     * of trace time, as the replayed events' timestamps advance; with
     * DTRACE_TIMER_PER_CPU once for each CPU seen in the trace. Returns 0, or
     * -1 when nothing is being replayed. (For timer providers such as profile.) */
    int (*add_trace_timer)(dtrace_host *host, dtrace_probe_id probe, uint64_t interval_ns, uint32_t flags);
    /* Appended in ABI version 1 (present when struct_size covers it). Adds a
     * plugin action to D; call it from init(). Returns 0, or -1 after saying
     * why (the name is taken, the prototype does not parse). The plugin must
     * then have a consume_action entry. */
    int (*register_action)(dtrace_host *host, const dtrace_action_desc *desc);
    /* Appended in ABI version 1 (present when struct_size covers them).
     * Live (not replaying), asks the other plugins to fire `probe` every
     * `interval_ns` in the context of the thread each interval interrupts
     * (with DTRACE_TIMER_PER_CPU on every CPU, else on one), as a platform
     * plugin that samples with the kernel's clock events can. The firings
     * carry arg0 = the interrupted kernel PC or 0, arg1 = the interrupted
     * user PC or 0, and the thread's stacks. Returns 0 when a plugin took
     * the timer (it fires the probe between its start and stop until
     * remove_live_timer), or -1 when none can: the caller then runs a timer
     * of its own. Call it from enable, and remove_live_timer from disable. */
    int (*add_live_timer)(dtrace_host *host, dtrace_probe_id probe, uint64_t interval_ns, uint32_t flags);
    void (*remove_live_timer)(dtrace_host *host, dtrace_probe_id probe);
} dtrace_host_ops;

#define DTRACE_TIMER_PER_CPU 0x1u

/* Capabilities a plugin declares. */
#define DTRACE_PLUGIN_REPLAY 0x1u /* replays recorded events (trace time drives tick-N) */

/* Address spaces of lookup_symbol. */
#define DTRACE_SYMBOL_KERNEL 0x0u /* a kernel address; pid is -1 */
#define DTRACE_SYMBOL_USER 0x1u   /* a user address of process `pid` */

/* What lookup_symbol found at an address: the containing module and, when
 * the plugin knows it, the containing function. The core formats it as
 * DTrace does: "module`function+0xoffset", "module`function" at offset 0,
 * "module`0xaddress" without a function, or "module+0xoffset" without a
 * function when flags has DTRACE_SYMBOL_MODULE_OFFSET. */
typedef struct dtrace_symbol {
    uint32_t struct_size; /* set by the host; write no field beyond it */
    const char *module;   /* e.g. "ntdll.dll" or "genunix"; required when found */
    const char *function; /* NULL: only the module is known */
    uint64_t offset;      /* address minus the function's start (with a function) or, with
                             DTRACE_SYMBOL_MODULE_OFFSET, minus the module's base */
    /* Appended in ABI 1 (write only when struct_size covers it). */
    uint32_t flags; /* DTRACE_SYMBOL_MODULE_OFFSET */
} dtrace_symbol;

/* dtrace_symbol.flags: the address is best named by its offset in the module
 * (an address space recorded elsewhere, such as a replayed trace's, where
 * the absolute address means nothing on this machine). */
#define DTRACE_SYMBOL_MODULE_OFFSET 0x1u

/* plugin -> core: the plugin's function table. Unused entries may be NULL. */
typedef struct dtrace_plugin_ops {
    uint32_t struct_size;
    uint32_t abi_version;
    const char *name;        /* short name used by -x plugins=..., e.g. "syscall" */
    const char *description; /* one line */
    uint32_t capabilities;   /* DTRACE_PLUGIN_* */

    /* Called once after loading. Registers providers (and may register probes).
     * Returns 0, or -1 after report_error() saying why the plugin cannot run. */
    int (*init)(dtrace_host *host, const dtrace_host_ops *ops, void **state);
    /* Registers the probes matching spec (spec NULL: every probe the plugin has). */
    int (*provide)(void *state, const dtrace_probe_spec *spec);
    /* Fills the argument descriptors of a probe registered without them. */
    int (*arg_info)(void *state, dtrace_probe_id probe, uint64_t cookie, uint32_t index, dtrace_arg_desc *out);
    /* Arms / disarms a probe. Returns 0, or -1 after report_error(). */
    int (*enable)(void *state, dtrace_probe_id probe, uint64_t cookie);
    void (*disable)(void *state, dtrace_probe_id probe, uint64_t cookie);
    /* Starts delivering events (on the plugin's own threads) / stops and joins them.
     * After stop() returns, the plugin no longer calls fire(). */
    int (*start)(void *state);
    void (*stop)(void *state);
    void (*destroy)(void *state);

    /* Appended in ABI 1 (read only when struct_size covers it). */

    /* Resolves a program counter of a stack (or the address of sym(), %a,
     * usym(), %A...) in address space `space` (DTRACE_SYMBOL_*; `pid` is the
     * process for DTRACE_SYMBOL_USER, -1 for the kernel). Returns 0 with
     * *out filled (module set), or -1 when the address is unknown (no
     * report_error needed). The strings must stay valid until the next
     * lookup_symbol call or destroy; the host copies them at once. Called
     * from the consumer's thread, never concurrently with itself, possibly
     * while the plugin's own threads fire and after stop(). The core asks
     * the plugin whose probe recorded the address first and, for kernel
     * addresses, then every other plugin in load order; an address of an
     * aggregation key (recorded by any probe) is asked of every plugin. */
    int (*lookup_symbol)(void *state, uint32_t space, int64_t pid, uint64_t address, dtrace_symbol *out);

    /* Performs one recorded call of a plugin action, on the consumer's
     * thread, in the order the records are printed. Returns 0, or -1 after
     * report_error() (the session goes on). */
    int (*consume_action)(void *state, const dtrace_action_call *call);

    /* Take a live timer another plugin asked the host for (see
     * dtrace_host_ops.add_live_timer): fire `probe`, which is not this
     * plugin's, every `interval_ns` in the interrupted thread's context from
     * start to stop. Returns 0 when taken, -1 to decline (no report_error
     * needed: the host asks the next plugin, then the asker runs its own
     * timer). Called on the control thread before start; the host then asks
     * this plugin's lookup_symbol about the addresses those firings record.
     * remove_live_timer gives a taken timer back. */
    int (*add_live_timer)(void *state, dtrace_probe_id probe, uint64_t interval_ns, uint32_t flags);
    void (*remove_live_timer)(void *state, dtrace_probe_id probe);
} dtrace_plugin_ops;

typedef const dtrace_plugin_ops *(*dtrace_plugin_entry_fn)(uint32_t host_abi_version);

#ifdef __cplusplus
}
#endif

#endif /* DTRACE_SDK_PROVIDER_H */
