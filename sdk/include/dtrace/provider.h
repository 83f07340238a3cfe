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
    /* Appended in ABI 1 (read only when struct_size covers it). */
    uint32_t flags; /* DTRACE_PROVIDER_* */
} dtrace_provider_info;

/* dtrace_provider_info.flags: its probes' events carry no readable memory of
 * the traced process (a hook that records registers only), so the compiler
 * refuses copyin(), copyinstr() and copyinto() in their clauses. */
#define DTRACE_PROVIDER_NO_MEMORY 0x1u

/* One argument of a probe. */
typedef struct dtrace_arg_desc {
    uint32_t struct_size;
    const char *native_type;     /* D type of argN as the plugin supplies it, e.g. "int" */
    const char *translated_type; /* D type of args[i] after translation; NULL: same as native */
    uint8_t native_index;        /* which argN args[i] is translated from */
    /* Appended in ABI 1 (read only when struct_size covers it). */
    const char *name; /* what args[i] is, e.g. an event field's name ("Count"); NULL: unnamed */
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
    /* Appended after ABI 1 (read only when struct_size covers them): other
     * names of the probe's module that a description may spell exactly (no
     * glob matches them), as DTrace's pid provider takes `libc` or `a.out`
     * for the file it names libc.so.6 or the program: the probe keeps the
     * module name above. */
    const char *const *module_aliases;
    uint32_t nmodule_aliases;
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
    /* Appended in ABI 1 (read only when struct_size covers them). */
    int64_t errno_value; /* errno: why the traced call failed (a return probe); 0: it did not */
    uint64_t vtimestamp; /* ns the thread has spent on a CPU; 0: unknown (vtimestamp reads timestamp) */
    uint64_t curthread;  /* the kernel's address of the thread (Linux: its task_struct); 0: unknown */
    /* Appended after ABI 1 (read only when struct_size covers them). uregs[]:
     * the user registers at the event, indexed as D indexes uregs[] on the
     * platform (x86-64: the R_* constants of Oracle's DTrace for Linux, which
     * the live plugins declare in D); an index at or past user_regs_count, or
     * whose bit is set in user_regs_missing, is an illegal operation. */
    const uint64_t *user_regs; /* NULL: no registers (uregs[] faults) */
    uint32_t user_regs_count;
    uint64_t user_regs_missing; /* bit i: uregs[i] (i < 64) is not known */
    /* Appended after ABI 1 (read only when struct_size covers it): what the
     * firing thread had counted when the event happened, as the kernel
     * keeps it per thread; NULL: the plugin did not capture it. A counter
     * plugin's read_counter answers pmc["page-faults"] and its kin from it. */
    const struct dtrace_thread_counts *thread_counts;
    /* Appended after ABI 1 (read only when struct_size covers them): counter
     * values the event itself carries, by name (a replayed ETW event's PMC
     * counters, named by the trace's counter configuration); 0 and NULL:
     * none. A counter plugin's read_counter answers pmc["name"] from them. */
    uint32_t ncounters;
    const struct dtrace_counter_value *counters;
} dtrace_event_ctx;

/* One counter an event carries (dtrace_event_ctx.counters). */
typedef struct dtrace_counter_value {
    uint32_t struct_size;
    const char *name; /* as the source names it ("InstructionRetired") */
    uint64_t value;
} dtrace_counter_value;

/* The kernel's per-thread counts (Linux: the task's min_flt, maj_flt,
 * nvcsw, nivcsw, se.nr_migrations), read at the event. */
typedef struct dtrace_thread_counts {
    uint32_t struct_size;
    uint64_t minor_faults;
    uint64_t major_faults;
    uint64_t voluntary_switches;
    uint64_t involuntary_switches;
    uint64_t migrations;
} dtrace_thread_counts;

#define DTRACE_EVENT_LIVE_TARGET 0x1u /* read_memory reads a live process */
#define DTRACE_EVENT_REPLAYED 0x2u    /* the event comes from a trace file */
/* A replayed record stamped before the recorded data (a trace's header
 * records, written when the session started, which may be hours before the
 * events a file kept): it fires, but does not start or advance trace time. */
#define DTRACE_EVENT_BEFORE_DATA 0x4u
/* read_memory also reads the kernel's memory (a live kernel probe): D's
 * plain loads (args[0]->f_path, `jiffies) go through it, as they read
 * kernel memory in DTrace, not only copyin() and its kin. */
#define DTRACE_EVENT_KERNEL_MEMORY 0x8u

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

/* ---- Target processes (-c / -p) -------------------------------------------
 * The session's targets ($target is the first) and where each is in its life.
 * A plugin reads them with get_target and hears of each change through its
 * target_changed entry. */
typedef enum dtrace_target_state {
    DTRACE_TARGET_CREATED = 1, /* -c: forked, not exec'd yet; target_setenv may extend its environment */
    DTRACE_TARGET_STOPPED = 2, /* stopped before its first instruction: -c at exec (the new image is
                                  mapped), -p where it was grabbed; probes are being enabled */
    DTRACE_TARGET_RUNNING = 3, /* released: every probe of the session is enabled */
    DTRACE_TARGET_EXITED = 4   /* gone (exited, killed, or its exec failed) */
} dtrace_target_state;

/* How the target came to the session. */
#define DTRACE_TARGET_FROM_COMMAND 0x1u /* -c: dtrace created it (and kills it when the session ends early) */
#define DTRACE_TARGET_GRABBED 0x2u      /* -p: it ran before dtrace and goes on after it */

typedef struct dtrace_target_info {
    uint32_t struct_size; /* set by the host; write no field beyond it */
    uint32_t state;       /* dtrace_target_state */
    int64_t pid;
    uint32_t flags; /* DTRACE_TARGET_FROM_COMMAND or DTRACE_TARGET_GRABBED */
} dtrace_target_info;

/* ---- Predicate filters --------------------------------------------------
 * What the compiler could hoist out of a clause's predicate: the conjuncts
 * that compare one field of the firing with a constant ($target included),
 * e.g. `/pid == $target && arg0 > 2 && self->ts/` gives pid == N and arg0 > 2.
 * A plugin may check them where its events arise (in the kernel) so that
 * unwanted events never reach fire(); it may also ignore them: the clause's
 * predicate still runs in the DIF VM, so output is the same either way. */
typedef enum dtrace_filter_field {
    DTRACE_FILTER_PID = 1,      /* the process id (pid, as the event context's pid) */
    DTRACE_FILTER_TID = 2,      /* the thread id (tid) */
    DTRACE_FILTER_UID = 3,      /* the real user id (uid) */
    DTRACE_FILTER_GID = 4,      /* the real group id (gid) */
    DTRACE_FILTER_EXECNAME = 5, /* execname; `string` holds the operand, op is EQ or NE */
    DTRACE_FILTER_ARG = 6       /* native argument arg_index (argN), as the plugin passes it */
} dtrace_filter_field;

/* Comparisons, always of the field's 64-bit value as a signed integer
 * (int64_t) with `value`: the compiler hoists an ordered comparison only
 * when D compares signed; EQ and NE are the same signed or not. */
typedef enum dtrace_filter_op {
    DTRACE_FILTER_EQ = 1,
    DTRACE_FILTER_NE = 2,
    DTRACE_FILTER_LT = 3,
    DTRACE_FILTER_LE = 4,
    DTRACE_FILTER_GT = 5,
    DTRACE_FILTER_GE = 6
} dtrace_filter_op;

/* One conjunct: `field op value` (or `execname op string`). */
typedef struct dtrace_filter_term {
    uint32_t struct_size;
    uint32_t field;     /* dtrace_filter_field */
    uint32_t arg_index; /* DTRACE_FILTER_ARG: which argN */
    uint32_t op;        /* dtrace_filter_op */
    int64_t value;
    const char *string; /* DTRACE_FILTER_EXECNAME: the name; NULL otherwise */
} dtrace_filter_term;

/* A conjunction of terms: an event passes when every term holds. */
typedef struct dtrace_filter {
    uint32_t struct_size;
    uint32_t nterms;
    const dtrace_filter_term *terms;
} dtrace_filter;

/* ---- Types supplied by a plugin, on demand -----------------------------
 * A plugin with many types (BTF's kernel types, a program's DWARF) answers
 * lookup_type for one name at a time instead of shipping D source: a small
 * graph of type nodes, referring to each other by index. */
typedef enum dtrace_type_kind {
    DTRACE_TYPE_VOID = 1,
    DTRACE_TYPE_INTEGER = 2,   /* name ("unsigned int", "_Bool"...), size, is_signed */
    DTRACE_TYPE_FLOAT = 3,     /* size */
    DTRACE_TYPE_POINTER = 4,   /* ref: the pointee */
    DTRACE_TYPE_ARRAY = 5,     /* ref: the element; count */
    DTRACE_TYPE_STRUCT = 6,    /* name (the tag; "" when anonymous), size, members;
                                  size 0 and no members: a forward declaration */
    DTRACE_TYPE_UNION = 7,     /* as STRUCT */
    DTRACE_TYPE_ENUM = 8,      /* name, size, enumerators */
    DTRACE_TYPE_TYPEDEF = 9,   /* name, ref: the type it names */
    DTRACE_TYPE_CONST = 10,    /* ref */
    DTRACE_TYPE_VOLATILE = 11, /* ref */
    /* A type given by its D spelling ("struct mm_struct", "pid_t") that the
     * host resolves itself, asking lookup_type again when it must: a
     * plugin answers one struct at a time and names the structs its
     * members point to, which are then described only when a program uses
     * them. */
    DTRACE_TYPE_NAMED = 12
} dtrace_type_kind;

typedef struct dtrace_type_member {
    uint32_t struct_size;
    const char *name;
    uint32_t type;      /* index in the graph's types */
    uint32_t bit_width; /* 0: not a bit-field */
    uint64_t offset_bits;
} dtrace_type_member;

typedef struct dtrace_type_enumerator {
    uint32_t struct_size;
    const char *name;
    int64_t value;
} dtrace_type_enumerator;

typedef struct dtrace_type_node {
    uint32_t struct_size;
    uint32_t kind; /* dtrace_type_kind */
    const char *name;
    uint64_t size; /* bytes */
    uint32_t is_signed;
    uint32_t ref;   /* index in the graph's types */
    uint64_t count; /* ARRAY: elements */
    uint32_t nmembers;
    const dtrace_type_member *members;
    uint32_t nenumerators;
    const dtrace_type_enumerator *enumerators;
} dtrace_type_node;

typedef struct dtrace_type_graph {
    uint32_t struct_size;
    uint32_t ntypes;
    const dtrace_type_node *types;
    uint32_t root; /* index of the type that was asked for */
} dtrace_type_graph;

/* ---- Kernel symbols -----------------------------------------------------
 * What a backquoted identifier (`jiffies, `vmlinux`jiffies) names. */
typedef struct dtrace_kernel_symbol {
    uint32_t struct_size; /* set by the host; write no field beyond it */
    uint64_t address;
    const char *type; /* the D type of the object at `address`, as D spells it
                         ("unsigned long", "struct task_struct"); NULL: int, as
                         DTrace types a symbol it has no type for */
} dtrace_kernel_symbol;

/* ---- What enabled clauses read -----------------------------------------
 * (dtrace_host_ops.probe_usage) */
/* dtrace_probe_usage.flags */
#define DTRACE_USAGE_USER_STACK 0x1u   /* ustack(), ustackdepth, ucaller (or jstack()) */
#define DTRACE_USAGE_KERNEL_STACK 0x2u /* stack(), stackdepth, caller */
#define DTRACE_USAGE_USER_REGS 0x4u    /* uregs[] */
#define DTRACE_USAGE_ARGS 0x8u         /* argN or args[] (a plugin that records events may leave them out) */
#define DTRACE_USAGE_TIMESTAMP 0x10u   /* timestamp, vtimestamp, walltimestamp (likewise) */
#define DTRACE_USAGE_VTIMESTAMP 0x20u  /* vtimestamp (with TIMESTAMP): the thread's CPU time may cost more */

/* One load the clauses make (dtrace_probe_usage.fetches): `length` bytes at
 * the base plus `offset`, or with DTRACE_FETCH_STRING the NUL-terminated
 * string there (at most `length` bytes with its NUL). */
#define DTRACE_FETCH_ARG 0u       /* base: native argument `index` */
#define DTRACE_FETCH_CURTHREAD 1u /* base: the thread's kernel address (curthread) */
#define DTRACE_FETCH_ABSOLUTE 2u  /* base: 0 (a backquoted symbol: `offset` is its address) */
#define DTRACE_FETCH_POINTER 3u   /* base: the 8 bytes the earlier fetch `index` read */
#define DTRACE_FETCH_STRING 0x1u  /* dtrace_memory_fetch.flags */
#define DTRACE_USAGE_MAX_FETCHES 16
typedef struct dtrace_memory_fetch {
    uint8_t base;   /* DTRACE_FETCH_ARG ... DTRACE_FETCH_POINTER */
    uint8_t flags;  /* DTRACE_FETCH_STRING */
    uint16_t index; /* the argument, or the earlier fetch */
    uint32_t length;
    int64_t offset;
} dtrace_memory_fetch;

typedef struct dtrace_probe_usage {
    uint32_t struct_size; /* set by the plugin; the host writes no field beyond it */
    uint32_t flags;       /* DTRACE_USAGE_* */
    /* Bit N: some clause reads copyinstr(argN) (or of args[i] translated
     * from argN); a plugin may copy that string at the event. */
    uint32_t string_args;
    /* Appended after ABI 1 (written only when struct_size covers them): the
     * kernel memory the clauses load from the event's own values (an
     * argument, curthread, a backquoted symbol, and what those point to),
     * in the order they load it, so that a kernel probe's plugin can read
     * it when the event happens rather than when the clause runs. A plugin
     * answers those loads from what it read (read_memory); loads the scan
     * could not foresee (through a variable, a computed index) are not
     * listed. */
    uint32_t nfetches;
    struct dtrace_memory_fetch fetches[DTRACE_USAGE_MAX_FETCHES];
} dtrace_probe_usage;

/* ---- In-kernel fast path ------------------------------------------------
 * dtrace may compile a clause to a BPF program (core/fastpath, see
 * docs/fastpath.md) and hand it to the plugin whose probes it runs on, so
 * that the clause runs where the events arise and no event crosses to user
 * space. The plugin creates the maps, loads the program (the kernel's
 * verifier checks it), runs it in place of its own delivery for the probes
 * it is attached to, and reads the maps back when dtrace asks. A plugin
 * without a fastpath table simply keeps every clause in user space. */

#define DTRACE_FASTPATH_MAX_ARGS 10u

/* How a probe's BPF context holds the event (the plugin's own programs
 * pass it on unchanged, e.g. by a tail call): the arguments are the 8-byte
 * words at ctx + arg_offset, arg_offset + 8, ... (nargs of them). */
/* The arguments dtrace_fastpath_probe describes field by field. */
#define DTRACE_FASTPATH_MAX_ARG_FIELDS 10

typedef struct dtrace_fastpath_probe {
    uint32_t struct_size; /* set by the host; write no field beyond it */
    uint32_t flags;       /* DTRACE_FASTPATH_* */
    uint32_t nargs;
    uint32_t arg_offset;
    /* Appended: where the kernel's struct task_struct keeps what ppid and
     * vtimestamp read, in bytes (0: unknown; those builtins then keep a
     * clause in user space): real_parent, tgid, se.sum_exec_runtime. */
    uint32_t task_real_parent;
    uint32_t task_tgid;
    uint32_t task_exec_runtime;
    /* Appended: a word of the context that tells the probe from the other
     * probes of its plugin (the syscall number of a system call's
     * tracepoint): its offset and size (4 or 8; 0: none) and this probe's
     * value. Probes whose clauses name their probe (records, probe names)
     * then share one program, which looks the probe up by this word. */
    uint32_t probe_word_offset;
    uint32_t probe_word_size;
    uint64_t probe_word;
    /* Appended: with DTRACE_FASTPATH_ARG_TABLE in flags, argument i (i <
     * nargs, at most DTRACE_FASTPATH_MAX_ARGS) is where arg_offsets[i] says
     * instead of the words at arg_offset: the 8-byte word at that offset in
     * the context (a register of struct pt_regs at a uprobe), or one of the
     * DTRACE_FASTPATH_ARG_* places below. Superseded by
     * DTRACE_FASTPATH_ARG_FIELDS, which says all of it and more (the host
     * reads this table as fields of 8 bytes, for plugins built before). */
    uint32_t arg_offsets[DTRACE_FASTPATH_MAX_ARGS];
    /* Appended (tracepoints): arguments that are fields of the event's
     * record rather than 8-byte words, with DTRACE_FASTPATH_ARG_FIELDS:
     * argN (N below nargs and DTRACE_FASTPATH_MAX_ARG_FIELDS) is the
     * integer of arg_field_size[N] bytes (1, 2, 4 or 8) at ctx +
     * arg_field_offset[N], sign-extended when bit N of arg_field_signed is
     * set. Size 0: the argument cannot be read in the kernel (a string, a
     * record the plugin builds in user space, user memory), and a clause
     * reading it stays in user space; so does one reading argN past the
     * table. Size DTRACE_FASTPATH_ARG_FIELD_COOKIE_HIGH: the high 32 bits
     * of the probe's attach cookie. The one way to say where arguments are
     * when they are not the words at arg_offset. */
    uint16_t arg_field_offset[DTRACE_FASTPATH_MAX_ARG_FIELDS];
    uint8_t arg_field_size[DTRACE_FASTPATH_MAX_ARG_FIELDS];
    uint32_t arg_field_signed;
    /* Appended: with DTRACE_FASTPATH_THREAD_TASK, the thread builtins (pid
     * tid execname uid gid ppid vtimestamp, and the thread of self->) are
     * those of the task whose struct task_struct * is the context's 8-byte
     * word at thread_task_offset (sched:::on-cpu: the thread coming on), read
     * at these offsets of task_struct and struct cred (0: unknown; the
     * builtins needing it keep a clause in user space). */
    uint32_t thread_task_offset;
    uint32_t task_pid;
    uint32_t task_comm;
    uint32_t task_cred;
    uint32_t cred_uid;
    uint32_t cred_gid;
    /* Appended: when probe_layout returns -1, why the probe cannot run
     * dtrace's programs (a static string -x fastpath=explain prints; NULL:
     * not said). */
    const char *unavailable;
    /* Appended: for an argument of size DTRACE_FASTPATH_ARG_FIELD_USER_WORD,
     * how far above the context's address its word lies. */
    uint16_t arg_field_user_displacement[DTRACE_FASTPATH_MAX_ARG_FIELDS];
    /* Appended: with DTRACE_FASTPATH_USER_REGISTERS, where the user
     * registers a walk of the user stack starts from are (ustack() keys):
     * the byte offsets in the context of the 8-byte words of the
     * instruction pointer, the stack pointer and the frame pointer (struct
     * pt_regs's rip, rsp and rbp at a uprobe). */
    uint16_t user_ip_offset;
    uint16_t user_sp_offset;
    uint16_t user_bp_offset;
    /* Appended: where the kernel's struct task_struct keeps mm, and struct
     * mm_struct start_stack (0: unknown): a walk of a main thread's user
     * stack then copies it up to its start only, as the user-space path
     * copies it, rather than a fixed size. */
    uint32_t task_mm;
    uint32_t mm_start_stack;
    /* Appended: without DTRACE_FASTPATH_USER_REGISTERS, why a walk of the
     * user stack cannot run at the probe (a static string -x
     * fastpath=explain prints after "ustack() keys are not available in
     * the kernel path: "; NULL: not said). */
    const char *user_stacks_unavailable;
} dtrace_fastpath_probe;

/* A system call return: the word at arg_offset is the kernel's return value;
 * arg0 and arg1 are it, or -1 when it is an error (-4095..-1), and errno
 * is its negation then (0 otherwise). */
#define DTRACE_FASTPATH_SYSCALL_RETURN 0x1u
/* The arguments are where arg_offsets says, one by one. */
#define DTRACE_FASTPATH_ARG_TABLE 0x2u
/* arg_offsets[i]: the high 32 bits of the probe's attach cookie
 * (bpf_get_attach_cookie(); a pid return probe's offset in its function). */
#define DTRACE_FASTPATH_ARG_COOKIE_HIGH 0xfffffffeu
/* arg_offsets[i]: not readable by dtrace's program (an argument the plugin
 * reads from user memory); a clause reading it stays in user space. */
#define DTRACE_FASTPATH_ARG_UNAVAILABLE 0xffffffffu
/* The arguments are the fields arg_field_offset/size/signed describe. */
#define DTRACE_FASTPATH_ARG_FIELDS 0x10u
/* arg_field_size[N]: argN is the high 32 bits of the probe's attach cookie
 * (bpf_get_attach_cookie(); a pid return probe's offset in its function). */
#define DTRACE_FASTPATH_ARG_FIELD_COOKIE_HIGH 0xffu
/* arg_field_size[N]: argN is the 8-byte word of user memory
 * arg_field_user_displacement[N] bytes above the address in the context's
 * 8-byte word at arg_field_offset[N] (a stack argument above a uprobe's
 * rsp), 0 when it cannot be read. */
#define DTRACE_FASTPATH_ARG_FIELD_USER_WORD 0xfeu
/* The thread builtins are those of the task at thread_task_offset. */
#define DTRACE_FASTPATH_THREAD_TASK 0x20u
/* The context is a raw tracepoint's (the tracepoint's arguments as 8-byte
 * words): the program is loaded as BPF_PROG_TYPE_RAW_TRACEPOINT (the host
 * passes the probes' flags on in dtrace_bpf_program.layout_flags). */
#define DTRACE_FASTPATH_RAW_TRACEPOINT 0x40u
/* The context holds the user registers of the thread at the probe, where
 * user_ip_offset, user_sp_offset and user_bp_offset say. */
#define DTRACE_FASTPATH_USER_REGISTERS 0x80u
/* Appended: with DTRACE_FASTPATH_USER_REGISTERS, user_ip_offset,
 * user_sp_offset and user_bp_offset are offsets in the current task's
 * struct pt_regs (bpf_task_pt_regs(bpf_get_current_task_btf()): the user
 * registers at a tracepoint of a system call), not in the context. */
#define DTRACE_FASTPATH_TASK_USER_REGISTERS 0x100u

typedef enum dtrace_bpf_map_type {
    DTRACE_BPF_MAP_HASH = 1,
    DTRACE_BPF_MAP_PERCPU_HASH = 2,
    DTRACE_BPF_MAP_ARRAY = 3,
    DTRACE_BPF_MAP_PERCPU_ARRAY = 4,
    /* A BPF ring buffer (read_ring): key_size and value_size 0, max_entries
     * its bytes (a power of 2, a multiple of the page size). */
    DTRACE_BPF_MAP_RINGBUF = 5,
    /* Appended: a program array (key and value 4 bytes): what a program
     * tail-calls (fill_way_back). */
    DTRACE_BPF_MAP_PROG_ARRAY = 6
} dtrace_bpf_map_type;

typedef struct dtrace_bpf_map_spec {
    uint32_t struct_size;
    uint32_t type; /* dtrace_bpf_map_type */
    uint32_t key_size;
    uint32_t value_size;
    uint32_t max_entries;
    const char *name; /* for bpftool and error messages */
} dtrace_bpf_map_spec;

/* A program of BPF instructions (struct bpf_insn, 8 bytes each, as the
 * kernel's UAPI lays them out). A 64-bit immediate load with src_reg 1
 * (BPF_PSEUDO_MAP_FD) whose imm is i refers to maps[i], a handle
 * create_map returned; the plugin puts the map's file descriptor there. */
typedef struct dtrace_bpf_program {
    uint32_t struct_size;
    const char *name;
    const uint64_t *insns;
    uint32_t ninsns;
    uint32_t nmaps;
    const int32_t *maps;
    char *log; /* filled with the verifier's log when it refuses the program */
    uint32_t log_size;
    /* Appended: the flags (DTRACE_FASTPATH_*) of the layout of the probes
     * the program serves; DTRACE_FASTPATH_RAW_TRACEPOINT says its type. */
    uint32_t layout_flags;
} dtrace_bpf_program;

/* One entry of a map read back: the key, then the value of each possible
 * CPU for per-CPU maps (nvalues of them, each value_size rounded up to 8
 * bytes), one value otherwise. Valid during the call only. */
typedef void (*dtrace_bpf_map_entry_fn)(void *arg, const void *key, const void *values, uint32_t nvalues);

/* One record taken from a ring map (read_ring). Valid during the call only. */
typedef void (*dtrace_bpf_ring_record_fn)(void *arg, const void *data, uint32_t size);

typedef struct dtrace_fastpath_ops {
    uint32_t struct_size;
    /* How `probe`'s BPF context holds its event: 0 with *out filled, or -1
     * when the probe cannot run a program of dtrace's (no report_error). */
    int (*probe_layout)(void *state, dtrace_probe_id probe, uint64_t cookie, dtrace_fastpath_probe *out);
    /* Creates a map; returns its handle (>= 0), or -1 after report_error(). */
    int32_t (*create_map)(void *state, const dtrace_bpf_map_spec *spec);
    /* Loads a program; returns its handle (>= 0), or -1 with the reason in
     * program->log (the verifier's log when the verifier refused it). */
    int32_t (*load_program)(void *state, const dtrace_bpf_program *program);
    /* Runs program `program` for every event of the enabled `probe` from
     * now on, instead of delivering the events to fire(). Returns 0, or -1
     * after report_error(). */
    int (*attach_program)(void *state, int32_t program, dtrace_probe_id probe, uint64_t cookie);
    /* Calls `fn` for each entry of map `map`. Returns 0, or -1 after
     * report_error(). Called from the consumer's thread while events run. */
    int (*read_map)(void *state, int32_t map, dtrace_bpf_map_entry_fn fn, void *arg);
    /* Appended: calls `fn` for each record waiting in ring map `map`
     * (DTRACE_BPF_MAP_RINGBUF), oldest first, and frees them. Returns 0, or
     * -1 after report_error(). Called from the consumer's thread while
     * events run. NULL (or an older table): dtrace's programs write no
     * records, the clauses that record stay in user space. */
    int (*read_ring)(void *state, int32_t map, dtrace_bpf_ring_record_fn fn, void *arg);
    /* Appended: sets the entry of `key` in map `map` to `value` (the sizes
     * the map was created with). Returns 0, or -1 after report_error().
     * NULL (or an older table): probes do not share programs by their
     * probe_word. */
    int (*update_map)(void *state, int32_t map, const void *key, const void *value);
    /* Appended: how many of the innermost frames of a kernel stack that
     * dtrace's program took with bpf_get_stack() (`frames`, innermost
     * first) belong to the tracing machinery that ran the program rather
     * than to the code that hit the probe: stack() shows the frames after
     * them, as for the plugin's own events. NULL (or an older table):
     * clauses with stack() keys stay in user space. */
    uint32_t (*kernel_stack_skip)(void *state, const uint64_t *frames, uint32_t nframes);
    /* Appended: fills the maps of dtrace's walk of user stacks (created by
     * create_map: rows, blocks, mappings, as dtrace_fastpath_unwind_row
     * below describes them) with the table of the one process whose events
     * the enabled `probe` gives, as it maps its files now, and keeps them
     * true while programs run (again after it maps or unmaps a file, while
     * no event of it can run). Returns 0, or -1 (no report_error) when it
     * cannot: the probe is not of one process, the maps are another
     * process's already, the process is gone or maps too many files. NULL
     * (or an older table): clauses with ustack() keys stay in user space. */
    int (*fill_user_stack_maps)(void *state, dtrace_probe_id probe, uint64_t cookie, int32_t rows, int32_t blocks,
                                int32_t mappings);
    /* Appended: puts at index 0 of `program_array` (a
     * DTRACE_BPF_MAP_PROG_ARRAY of one entry, created by create_map) the
     * plugin's program that delivers an event of the enabled `probe` to
     * fire() as it would without dtrace's program (with what its clauses
     * read: the registers, the user stack), and does not run dtrace's
     * program again. dtrace's program tail-calls it for an event it cannot
     * finish in the kernel (a walk of the user stack that meets what its
     * rows cannot say), before any of its clauses acted; its context is the
     * one the plugin's program gave dtrace's. Returns 0, or -1 (no
     * report_error) when the plugin cannot. NULL (or an older table):
     * clauses that may decline an event (ustack() keys) stay in user space. */
    int (*fill_way_back)(void *state, dtrace_probe_id probe, uint64_t cookie, int32_t program_array);
} dtrace_fastpath_ops;

/* Appended: the compact CFI rows by which dtrace's programs walk a user
 * stack in the kernel (ustack() keys; docs/fastpath.md, "Stacks"). A plugin
 * writes each mapped file's rows, sorted by start, into an array map of
 * rows, their block index into an array map of blocks, and the process's
 * executable mappings, sorted by start, into an array map of mappings
 * (unused entries: start = end = UINT64_MAX). A row holds from its start
 * to the next row's start. */
/* The rows map's, the mappings map's and the blocks map's entries. A
 * block entry is the index of the row holding the first byte of a block
 * of 2^DTRACE_UNWIND_BLOCK_SHIFT bytes of a mapping's code (each mapping
 * has one more entry, its last row's index): the walk searches a pc's row
 * between its block's entry and the next, at most DTRACE_UNWIND_BLOCK_ROWS
 * rows (compiled code has a row every 10 to 30 bytes: 46 at most in a
 * block of the libraries of a C++ program here). */
#define DTRACE_UNWIND_ROWS_MAX (1u << 17)
#define DTRACE_UNWIND_MAPPINGS_MAX 64u
#define DTRACE_UNWIND_BLOCKS_MAX (1u << 18)
#define DTRACE_UNWIND_BLOCK_SHIFT 8
#define DTRACE_UNWIND_BLOCK_ROWS 64u

typedef struct dtrace_fastpath_unwind_row {
    uint32_t start;         /* link-time address of the row's first instruction */
    int32_t cfa_offset;     /* CFA = cfa_register + cfa_offset */
    uint8_t kind;           /* DTRACE_UNWIND_ROW_* */
    uint8_t cfa_register;   /* DWARF's number: 6 rbp, 7 rsp (COMPACT rows) */
    uint8_t rbp_rule;       /* DTRACE_UNWIND_REGISTER_* */
    uint8_t rip_rule;       /* UNDEFINED (the outermost frame) or AT_CFA */
    int16_t rbp_cfa_offset; /* rbp_rule AT_CFA: the caller's rbp is at CFA + this */
    int16_t rip_cfa_offset; /* rip_rule AT_CFA: the return address is at CFA + this */
} dtrace_fastpath_unwind_row;

/* No CFI from the row's start: the user-space unwinder stops there too. */
#define DTRACE_UNWIND_ROW_NONE 0
/* CFA = rsp or rbp + offset, rbp and the return address as the rules say. */
#define DTRACE_UNWIND_ROW_COMPACT 1
/* A row of another form (a DWARF expression, another CFA register): an
 * event whose walk meets it goes to the user-space path. */
#define DTRACE_UNWIND_ROW_OTHER 2

#define DTRACE_UNWIND_REGISTER_UNDEFINED 0
#define DTRACE_UNWIND_REGISTER_SAME 1
#define DTRACE_UNWIND_REGISTER_AT_CFA 2

typedef struct dtrace_fastpath_user_mapping {
    uint64_t start, end;  /* [start, end) in the process */
    uint64_t bias;        /* a pc's link-time address is pc - bias */
    uint32_t first_row;   /* its file's rows in the rows map */
    uint32_t nrows;       /* 0: code without rows (its events go to user space) */
    uint32_t first_block; /* its block entries in the blocks map */
    uint32_t reserved;
} dtrace_fastpath_user_mapping;

/* Appended: the mappings map holds one entry more, at this index, which
 * is not a mapping: its start is the process (tgid) whose table the maps
 * hold (0: none yet). dtrace's programs walk only that process's stacks
 * and send every other event back to user space (fill_way_back), so that
 * a probe of every process (a system call's) can walk one process's. */
#define DTRACE_UNWIND_PROCESS_ENTRY DTRACE_UNWIND_MAPPINGS_MAX

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
    /* The value of a -x option (NULL if unset): dtrace's own, or one the
     * plugin declared in dtrace_plugin_ops.options. */
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

    /* Appended in ABI 1 (present when struct_size covers it). A replaying
     * plugin says how far through its input it is: `done` of `total` (any
     * unit: bytes, buffers) and the events replayed so far. dtrace shows it
     * on a terminal; call it as often as you like (it keeps ~10 a second). */
    void (*report_progress)(dtrace_host *host, uint64_t done, uint64_t total, uint64_t events);

    /* Appended in ABI version 1 (present when struct_size covers them). */
    /* The session's target `index` (0 is $target). Returns 0 with *out filled,
     * or -1 when there is no such target (a session without -c/-p has none). */
    int (*get_target)(dtrace_host *host, uint32_t index, dtrace_target_info *out);
    /* Sets NAME=VALUE in the environment target `pid` will exec with; only
     * while target_changed(DTRACE_TARGET_CREATED) for that pid runs (-1
     * otherwise). The value replaces the one the target would inherit from
     * dtrace: to add to LD_PRELOAD, read getenv("LD_PRELOAD") first. */
    int (*target_setenv)(dtrace_host *host, int64_t pid, const char *name, const char *value);

    /* Appended in ABI 1 (present when struct_size covers it). A D library
     * (types, inlines, translators) several plugins share, compiled before
     * the providers' own d_source: the first registration of `name` counts,
     * and registering the same name again with the same text is a no-op
     * (the second plugin to ship it), with other text an error (-1 after the
     * host reports it). During init only. Returns 0 or -1. */
    int (*register_library)(dtrace_host *host, const char *name, const char *d_source);
    /* Appended in ABI version 1 (present when struct_size covers it). What
     * the clauses enabled on `probe` so far read that a plugin must capture
     * when the event happens (a stack, a string the call saw). Returns 0
     * with *out filled, or -1 for an unknown probe. Ask once tracing starts
     * (the first clause is enabled after the plugin's enable() returns), or
     * after registering a probe late. */
    int (*probe_usage)(dtrace_host *host, dtrace_probe_id probe, dtrace_probe_usage *out);
    /* Appended in ABI version 1 (present when struct_size covers it). The
     * argument types the `provider` definitions of the D file at `path`
     * declare, compiled as dtrace -h compiles them: *out is one line per
     * probe, "provider<TAB>probe as written<TAB>type<TAB>type...", a type
     * followed by " : translated" where the definition translates it (the
     * table dtrace -G writes in .dtrace_usdt_types). Returns 0, or -1 with
     * *out saying why ("PATH: line N: ..."). *out stays valid until this
     * plugin calls this op again. */
    int (*read_provider_types)(dtrace_host *host, const char *path, const char **out);
} dtrace_host_ops;

#define DTRACE_TIMER_PER_CPU 0x1u

/* Capabilities a plugin declares. */
#define DTRACE_PLUGIN_REPLAY 0x1u /* replays recorded events (trace time drives tick-N) */
/* Its lookup_type describes the kernel's types (BTF). The host asks such
 * plugins after the others, whose types are the traced programs' own: a
 * script tracing a program that defines `struct request` means the
 * program's, not the kernel's block-layer struct of the same name. */
#define DTRACE_PLUGIN_KERNEL_TYPES 0x2u

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

/* Kinds of plugin options: how the host parses `-x name=value`. */
typedef enum dtrace_option_kind {
    DTRACE_OPTION_STRING = 0, /* any text; `-x name=text` */
    DTRACE_OPTION_FLAG = 1,   /* set by presence (`-x name`); a value is refused */
    DTRACE_OPTION_LIST = 2,   /* repeatable; get_option joins the values with ':' */
    DTRACE_OPTION_SIZE = 3,   /* bytes with an optional k/m/g/t suffix */
    DTRACE_OPTION_INTEGER = 4 /* a non-negative integer */
} dtrace_option_kind;

/* An option a plugin declares (dtrace_plugin_ops.options). The host accepts
 * `-x name=value` and `#pragma D option name=value` for it, checks the value
 * by its kind before init, lists it under -x plugins=help, and the plugin
 * reads it with get_option(), as text (a flag reads as ""). Names share one
 * namespace with dtrace's own options: prefix them with the plugin's name. */
typedef struct dtrace_option_desc {
    uint32_t struct_size;
    const char *name;          /* e.g. "etwmanifest" */
    uint32_t kind;             /* dtrace_option_kind */
    const char *default_value; /* NULL: unset unless given */
    const char *description;   /* one line for -x plugins=help */
} dtrace_option_desc;

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
    /* Appended in ABI 1 (read only when struct_size covers them): what
     * -x plugins=help lists, read before init. */
    const char *version;               /* the plugin's own version, e.g. "1.0"; NULL: none */
    uint32_t noptions;                 /* entries in options */
    const dtrace_option_desc *options; /* the -x options the plugin reads with get_option */
    /* The providers the plugin may register, blank-separated fnmatch(3)
     * patterns ("syscall", "pid*"): when a probe description names one and
     * the plugin is not loaded, dtrace says so and why. NULL: not said. */
    const char *providers;

    /* Target `pid` (see get_target) is now in state `state`
     * (dtrace_target_state), on the control thread: CREATED (call
     * target_setenv now), STOPPED (place what must see its first
     * instruction), RUNNING, EXITED. */
    void (*target_changed)(void *state, int64_t pid, uint32_t new_state);

    /* Before start(), once per enabled probe of the plugin, and for a probe
     * registered later once its clauses are enabled on it (from within
     * register_probe, after enable): the events of the
     * probe that can pass any of its clauses' predicates are those passing at
     * least one of the `nfilters` filters (a disjunction of conjunctions);
     * nfilters 0: every event may (some clause has no hoistable predicate).
     * Valid during the call only. Returns 0 (filters used or ignored), or -1
     * after report_error() (the session then fails to start). */
    int (*set_filters)(void *state, dtrace_probe_id probe, uint64_t cookie, uint32_t nfilters,
                       const dtrace_filter *filters);

    /* Describes the type D spells `name` ("task_t", "struct task_struct",
     * "union u", "enum e") when a program needs a type nobody declared.
     * Returns 0 with *out pointing at a graph valid until the next
     * lookup_type call or destroy, or -1 when the plugin has no such type
     * (no report_error needed). Called by the compiler, on the control
     * thread. */
    int (*lookup_type)(void *state, const char *name, const dtrace_type_graph **out);

    /* Resolves a backquoted kernel symbol: `module` is "" for `name, or the
     * module of mod`name. Returns 0 with *out filled (strings valid until the
     * next call), or -1 when the plugin does not know it. */
    int (*lookup_kernel_symbol)(void *state, const char *module, const char *name, dtrace_kernel_symbol *out);

    /* Appended in ABI 1 (read only when struct_size covers it): the plugin's
     * in-kernel fast path (see dtrace_fastpath_ops); NULL: none. */
    const dtrace_fastpath_ops *fastpath;

    /* Appended in ABI 1 (read only when struct_size covers them): counters
     * D reads in any clause as `<counter_array>["name"]` (pmc["page-faults"]),
     * the firing thread's count at the event. NULL: none. The name is read
     * before init, so that dtrace can say which plugin supplies it when that
     * plugin is not loaded. */
    const char *counter_array;
    /* At compile time: the counter `name` (a string constant of the
     * program). Returns 0 with *cookie set, or -1 with *why saying why it
     * cannot be read (unknown, or this machine cannot count it; a static
     * string or one valid until the next call), or -1 with *why NULL when
     * the plugin serves no counters in this session (the host then asks the
     * next loaded plugin of the same counter_array). */
    int (*resolve_counter)(void *state, const char *name, uint64_t *cookie, const char **why);
    /* In probe context, on the firing's thread (any plugin's probe): the
     * count of the resolved counter `cookie` for the firing described by
     * `ctx`. Returns 0 with *value set, or -1 when this firing does not
     * carry it (the clause then faults). Must not block. */
    int (*read_counter)(void *state, uint64_t cookie, const dtrace_event_ctx *ctx, uint64_t *value);
} dtrace_plugin_ops;

typedef const dtrace_plugin_ops *(*dtrace_plugin_entry_fn)(uint32_t host_abi_version);

#ifdef __cplusplus
}
#endif

#endif /* DTRACE_SDK_PROVIDER_H */
