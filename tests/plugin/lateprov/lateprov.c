/*
 * lateprov: a test provider that registers probes while tracing runs, from
 * two threads at once, and fires each new probe as soon as it has its id —
 * as a pid provider does for a library loaded with dlopen, or fbt for a
 * kernel module loaded mid-session. The engine must match such probes
 * against the clauses already enabled (they fire and count) and stay
 * consistent while its probe table grows under firing threads (the
 * ThreadSanitizer build runs this too).
 *
 * Provider "late", probes ::p-initial (registered at init) and ::done. Once
 * started, threads 1 and 2 each register LATE_PROBES probes ::p-<thread>-<i>
 * and fire each LATE_FIRES times, the initial probe once per new probe; then
 * done fires once (a D clause on it calls exit()), with arg0 the number of
 * late probes whose filters the host handed over (set_filters, as it does
 * for the probes enabled before start) and arg1 the number of those whose
 * filter was exactly `pid != 12345`.
 */
#include <dtrace/provider.h>

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define LATE_COOKIE 1 /* the cookie of the probes the threads register */
#define FILTERED_PID 12345

#define LATE_THREADS 2
#define LATE_PROBES 200
#define LATE_FIRES 5

static dtrace_host *host;
static const dtrace_host_ops *ops;
static dtrace_provider_id provider;
static dtrace_probe_id initial_probe, done_probe;
static pthread_t coordinator;
static int started;
static int late_filters, late_filters_pid_ne; /* set_filters calls for late probes (atomic builtins) */

static void fire(dtrace_probe_id probe) {
    dtrace_event_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.struct_size = sizeof ctx;
    ctx.pid = ctx.ppid = ctx.tid = ctx.uid = ctx.gid = -1;
    ops->fire(host, probe, &ctx);
}

static void fire_done(void) {
    uint64_t args[2] = {(uint64_t)__atomic_load_n(&late_filters, __ATOMIC_RELAXED),
                        (uint64_t)__atomic_load_n(&late_filters_pid_ne, __ATOMIC_RELAXED)};
    dtrace_event_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.struct_size = sizeof ctx;
    ctx.pid = ctx.ppid = ctx.tid = ctx.uid = ctx.gid = -1;
    ctx.args = args;
    ctx.nargs = 2;
    ops->fire(host, done_probe, &ctx);
}

static dtrace_probe_id add_probe(const char *name, uint64_t cookie) {
    dtrace_probe_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.struct_size = sizeof desc;
    desc.module = "";
    desc.function = "";
    desc.name = name;
    desc.cookie = cookie;
    return ops->register_probe(host, provider, &desc);
}

static void *register_and_fire(void *arg) {
    int thread = (int)(intptr_t)arg;
    for (int i = 0; i < LATE_PROBES; i++) {
        char name[32];
        snprintf(name, sizeof name, "p-%d-%d", thread, i);
        dtrace_probe_id probe = add_probe(name, LATE_COOKIE);
        for (int k = 0; k < LATE_FIRES; k++)
            fire(probe);
        fire(initial_probe);
    }
    return NULL;
}

static void *coordinate(void *unused) {
    (void)unused;
    pthread_t workers[LATE_THREADS];
    int made = 0;
    for (; made < LATE_THREADS; made++) {
        if (pthread_create(&workers[made], NULL, register_and_fire, (void *)(intptr_t)(made + 1)) != 0)
            break;
    }
    for (int t = 0; t < made; t++)
        pthread_join(workers[t], NULL);
    fire_done();
    return NULL;
}

static int late_init(dtrace_host *h, const dtrace_host_ops *o, void **state) {
    host = h;
    ops = o;
    dtrace_provider_info info;
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    info.name = "late";
    dtrace_attribute a = {DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN};
    info.attributes.provider = info.attributes.module = info.attributes.function = info.attributes.name =
        info.attributes.args = a;
    provider = ops->register_provider(host, &info);
    initial_probe = add_probe("p-initial", 0);
    done_probe = add_probe("done", 0);
    *state = NULL;
    return provider && initial_probe && done_probe ? 0 : -1;
}

static int late_start(void *state) {
    (void)state;
    if (pthread_create(&coordinator, NULL, coordinate, NULL) != 0) {
        ops->report_error(host, "cannot start the probe-registering threads");
        return -1;
    }
    started = 1;
    return 0;
}

/* Called from within register_probe for the probes the threads register. */
static int late_set_filters(void *state, dtrace_probe_id probe, uint64_t cookie, uint32_t nfilters,
                            const dtrace_filter *filters) {
    (void)state;
    (void)probe;
    if (cookie != LATE_COOKIE)
        return 0;
    __atomic_add_fetch(&late_filters, 1, __ATOMIC_RELAXED);
    if (nfilters == 1 && filters[0].nterms == 1 && filters[0].terms[0].field == DTRACE_FILTER_PID &&
        filters[0].terms[0].op == DTRACE_FILTER_NE && filters[0].terms[0].value == FILTERED_PID)
        __atomic_add_fetch(&late_filters_pid_ne, 1, __ATOMIC_RELAXED);
    return 0;
}

static void late_stop(void *state) {
    (void)state;
    if (started)
        pthread_join(coordinator, NULL);
    started = 0;
}

static const dtrace_plugin_ops plugin_ops = {
    .struct_size = sizeof(dtrace_plugin_ops),
    .abi_version = DTRACE_SDK_ABI_VERSION,
    .name = "lateprov",
    .description = "test provider registering probes from two threads while tracing",
    .init = late_init,
    .start = late_start,
    .stop = late_stop,
    .set_filters = late_set_filters,
};

DTRACE_PLUGIN_EXPORT const dtrace_plugin_ops *dtrace_plugin_entry(uint32_t host_abi_version) {
    (void)host_abi_version;
    return &plugin_ops;
}
