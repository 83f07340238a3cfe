/*
 * stackprov: a test provider whose events carry synthetic kernel and user
 * stacks, and which names their addresses from a fixed symbol table through
 * lookup_symbol. The golden tests of stack(), ustack(), sym() and their kin
 * run against it (tests/golden/stacks).
 *
 * Provider "stacks", module "test", probes deep:fire, shallow:fire and
 * empty:fire. Once started, one thread fires, in this order: deep, shallow,
 * deep, empty; then it is done. Every event is on CPU 0 with pid 4242
 * ("stacktest"), except empty:fire (pid 4243, no stacks at all).
 *
 * Arguments of deep and shallow (each an address the table knows as noted):
 *   arg0 genunix`cv_wait+0x1c     arg1 genunix`read (its first byte)
 *   arg2 zfs`0x... (a module without functions)    arg3 unknown
 *   arg4 libc.so.1`fread+0x30 (pid 4242)            arg5 a.out`main (first byte)
 *   arg6 ld.so.1`0x... (module only)                arg7 unknown
 */
#include <dtrace/provider.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <time.h>

#define PROVIDER_NAME "stacks"
#define MODULE_NAME "test"
#define KNOWN_PID 4242
#define NARGS 8
#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

typedef struct symbol_range {
    int64_t pid; /* -1: a kernel range */
    const char *module;
    const char *function; /* NULL: the module only */
    uint64_t start, size;
} symbol_range;

static const symbol_range symbols[] = {
    {-1, "genunix", "cv_wait", 0xfffffffffb800000ull, 0x100},
    {-1, "genunix", "read", 0xfffffffffb800100ull, 0x200},
    {-1, "unix", "_sys_sysenter_post_swapgs", 0xfffffffffb900000ull, 0x200},
    {-1, "zfs", NULL, 0xfffffffff7000000ull, 0x100000},
    {KNOWN_PID, "libc.so.1", "_read", 0x7f0000001000ull, 0x40},
    {KNOWN_PID, "libc.so.1", "fread", 0x7f0000002000ull, 0x100},
    {KNOWN_PID, "a.out", "main", 0x401000ull, 0x200},
    {KNOWN_PID, "ld.so.1", NULL, 0x7f1000000000ull, 0x10000},
};

static const uint64_t deep_kernel[] = {
    0xfffffffffb80001cull, /* genunix`cv_wait+0x1c */
    0xfffffffffb800138ull, /* genunix`read+0x38 */
    0xfffffffffb800100ull, /* genunix`read */
    0xfffffffff7001234ull, /* zfs`0xfffffffff7001234 */
    0x00000000deadbeefull, /* unknown */
    0xfffffffffb90014cull, /* unix`_sys_sysenter_post_swapgs+0x14c */
};
static const uint64_t deep_user[] = {
    0x7f0000001008ull, /* libc.so.1`_read+0x8 */
    0x7f0000002030ull, /* libc.so.1`fread+0x30 */
    0x40101cull,       /* a.out`main+0x1c */
    0x7f1000000400ull, /* ld.so.1`0x7f1000000400 */
    0xbadcafeull,      /* unknown */
};
static const uint64_t shallow_kernel[] = {0xfffffffffb800110ull, 0xfffffffffb90014cull};
static const uint64_t shallow_user[] = {0x401010ull};
static const uint64_t addresses[NARGS] = {
    0xfffffffffb80001cull, 0xfffffffffb800100ull, 0xfffffffff7001234ull, 0xdeadbeefull,
    0x7f0000002030ull,     0x401000ull,           0x7f1000000400ull,     0xbadcafeull,
};

typedef struct probe_spec {
    const char *function;
    const uint64_t *kernel;
    uint32_t kernel_depth;
    const uint64_t *user;
    uint32_t user_depth;
    int64_t pid;
} probe_spec;

enum { DEEP, SHALLOW, EMPTY, PROBE_COUNT };
static const probe_spec probe_specs[PROBE_COUNT] = {
    {"deep", deep_kernel, COUNT_OF(deep_kernel), deep_user, COUNT_OF(deep_user), KNOWN_PID},
    {"shallow", shallow_kernel, COUNT_OF(shallow_kernel), shallow_user, COUNT_OF(shallow_user), KNOWN_PID},
    {"empty", NULL, 0, NULL, 0, KNOWN_PID + 1},
};
static const int sequence[] = {DEEP, SHALLOW, DEEP, EMPTY};

typedef struct stackprov {
    dtrace_host *host;
    const dtrace_host_ops *ops;
    dtrace_provider_id provider;
    _Atomic dtrace_probe_id probes[PROBE_COUNT];
    pthread_t thread;
    bool started;
} stackprov;

static stackprov the_state;

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int init(dtrace_host *host, const dtrace_host_ops *ops, void **state) {
    stackprov *sp = &the_state;
    memset(sp, 0, sizeof *sp);
    sp->host = host;
    sp->ops = ops;
    dtrace_provider_info info;
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    info.name = PROVIDER_NAME;
    info.attributes.provider =
        (dtrace_attribute){DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON};
    info.attributes.name = info.attributes.provider;
    sp->provider = ops->register_provider(host, &info);
    if (sp->provider == 0)
        return -1;
    for (int i = 0; i < PROBE_COUNT; i++) {
        dtrace_probe_desc desc;
        memset(&desc, 0, sizeof desc);
        desc.struct_size = sizeof desc;
        desc.module = MODULE_NAME;
        desc.function = probe_specs[i].function;
        desc.name = "fire";
        desc.nargs = 0; /* arg0..arg7 are read as int64_t */
        desc.cookie = (uint64_t)i;
        atomic_store(&sp->probes[i], ops->register_probe(host, sp->provider, &desc));
    }
    *state = sp;
    return 0;
}

static void fire(stackprov *sp, int which) {
    const probe_spec *p = &probe_specs[which];
    dtrace_event_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.struct_size = sizeof ctx;
    ctx.cpu = 0;
    ctx.timestamp = now_ns();
    ctx.pid = p->pid;
    ctx.ppid = 1;
    ctx.tid = p->pid;
    ctx.execname = "stacktest";
    ctx.nargs = NARGS;
    ctx.args = addresses;
    ctx.kernel_stack = p->kernel;
    ctx.kernel_stack_depth = p->kernel_depth;
    ctx.user_stack = p->user;
    ctx.user_stack_depth = p->user_depth;
    sp->ops->fire(sp->host, atomic_load(&sp->probes[which]), &ctx);
}

static void *run(void *arg) {
    for (size_t i = 0; i < COUNT_OF(sequence); i++)
        fire(arg, sequence[i]);
    return NULL;
}

static int start(void *state) {
    stackprov *sp = state;
    sp->started = pthread_create(&sp->thread, NULL, run, sp) == 0;
    if (!sp->started)
        sp->ops->report_error(sp->host, "cannot start the firing thread");
    return sp->started ? 0 : -1;
}

static void stop(void *state) {
    stackprov *sp = state;
    if (sp->started)
        pthread_join(sp->thread, NULL);
    sp->started = false;
}

static int lookup_symbol(void *state, uint32_t space, int64_t pid, uint64_t address, dtrace_symbol *out) {
    for (size_t i = 0; i < COUNT_OF(symbols); i++) {
        const symbol_range *s = &symbols[i];
        const bool same_space = space == DTRACE_SYMBOL_KERNEL ? s->pid == -1 : s->pid == pid;
        if (!same_space || address < s->start || address - s->start >= s->size)
            continue;
        out->module = s->module;
        out->function = s->function;
        out->offset = address - s->start;
        return 0;
    }
    return -1;
}

static const dtrace_plugin_ops plugin_ops = {
    .struct_size = sizeof(dtrace_plugin_ops),
    .abi_version = DTRACE_SDK_ABI_VERSION,
    .name = "stackprov",
    .description = "test provider of synthetic stacks and a fixed symbol table",
    .init = init,
    .start = start,
    .stop = stop,
    .lookup_symbol = lookup_symbol,
};

DTRACE_PLUGIN_EXPORT const dtrace_plugin_ops *dtrace_plugin_entry(uint32_t host_abi_version) {
    return &plugin_ops;
}
