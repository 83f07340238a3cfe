/*
 * tickprov.c: an example third-party DTrace provider, in C11, built only
 * against the SDK header. It shows every part of the ABI a provider uses:
 * registering a provider with its own D types and translator, probes typed at
 * registration and probes typed on demand (arg_info), glob matching in
 * provide(), enabling, a delivery thread calling fire() with a full event
 * context, a memory reader through which D reads the plugin's strings, and
 * the predicate filters of set_filters (a timer no clause can pass stays quiet).
 *
 * Probes (provider tick_example, module timer, name tick), driven by one
 * timer thread started at start() and joined at stop():
 *
 *   tick_example:timer:fast:tick   every 10 ms   (argument types given at registration)
 *   tick_example:timer:slow:tick   every 100 ms  (argument types given by arg_info)
 *
 *   args[0]  uint64_t    arg0: ticks of this timer so far, 1 on the first
 *   args[1]  int         arg1: the timer's interval in milliseconds
 *   args[2]  char *      arg2: address of the timer's label; copyinstr(arg2) reads it
 *   args[3]  tickinfo_t  translated from arg0 by the translator in d_source
 *
 * Try:
 *   dtrace -x plugin=./tickprov.so -lv -n 'tick_example:::'
 *   dtrace -x plugin=./tickprov.so -qn 'tick_example::slow:tick
 *       { printf("%s %d lap %d\n", copyinstr(arg2), args[0], args[3].ti_lap); }'
 */
#define _GNU_SOURCE /* gettid, sched_getcpu, program_invocation_short_name */

#include <dtrace/provider.h>

#include <errno.h>
#include <fnmatch.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define PROVIDER_NAME "tick_example"
#define MODULE_NAME "timer"
#define PROBE_NAME "tick"
#define TIMER_COUNT 2
#define NATIVE_NARGS 3 /* arg0 count, arg1 interval_ms, arg2 label address */
#define PROBE_NARGS 4  /* args[0..3]: the three natives and the translated tickinfo_t */
#define LABEL_SIZE 32
#define NS_PER_MS 1000000ull
#define NS_PER_S 1000000000ull

/* Types and translators of this provider, compiled by dtrace before user programs. */
static const char d_source[] = "typedef struct tickinfo {\n"
                               "    uint64_t ti_count;  /* ticks so far */\n"
                               "    uint64_t ti_lap;    /* laps of ten ticks completed */\n"
                               "    int ti_in_lap;      /* tick within the current lap, 0-9 */\n"
                               "} tickinfo_t;\n"
                               "translator tickinfo_t < uint64_t c > {\n"
                               "    ti_count = c;\n"
                               "    ti_lap = c / 10;\n"
                               "    ti_in_lap = c % 10;\n"
                               "};\n";

static const dtrace_arg_desc tick_args[PROBE_NARGS] = {
    {sizeof(dtrace_arg_desc), "uint64_t", NULL, 0},
    {sizeof(dtrace_arg_desc), "int", NULL, 1},
    {sizeof(dtrace_arg_desc), "char *", NULL, 2},
    {sizeof(dtrace_arg_desc), "uint64_t", "tickinfo_t", 0},
};

typedef struct tick_timer {
    const char *function;
    int interval_ms;
    bool typed_at_registration; /* false: the host asks arg_info */
    char label[LABEL_SIZE];     /* read by D through read_label() */
    _Atomic dtrace_probe_id probe;
    atomic_bool enabled;
    bool filtered_out; /* set_filters: no clause can pass this timer's events */
    uint64_t count;    /* timer thread only */
    uint64_t next_due; /* timer thread only */
} tick_timer;

typedef struct tickprov {
    dtrace_host *host;
    const dtrace_host_ops *ops;
    dtrace_provider_id provider;
    tick_timer timers[TIMER_COUNT];
    pthread_t thread;
    atomic_bool running;
} tickprov;

static const struct {
    const char *function;
    int interval_ms;
    bool typed_at_registration;
} timer_specs[TIMER_COUNT] = {{"fast", 10, true}, {"slow", 100, false}};

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * NS_PER_S + (uint64_t)ts.tv_nsec;
}

/* The SDK's glob rule: an empty (or absent) pattern matches anything. */
static bool matches(const char *pattern, const char *value) {
    return pattern == NULL || pattern[0] == '\0' || fnmatch(pattern, value, 0) == 0;
}

/* The memory reader of our events: only the timers' labels are readable.
 * A request running past the end of a label is cut short, as the ABI allows. */
static int64_t read_label(void *reader_state, uint64_t address, void *buffer, size_t length) {
    tickprov *tp = reader_state;
    for (int i = 0; i < TIMER_COUNT; i++) {
        const char *label = tp->timers[i].label;
        uint64_t base = (uint64_t)(uintptr_t)label;
        if (address >= base && address < base + LABEL_SIZE) {
            size_t available = (size_t)(base + LABEL_SIZE - address);
            size_t n = length < available ? length : available;
            memcpy(buffer, label + (address - base), n);
            return (int64_t)n;
        }
    }
    return -1;
}

static void fire_tick(tickprov *tp, tick_timer *t, uint64_t now) {
    const uint64_t args[NATIVE_NARGS] = {t->count, (uint64_t)t->interval_ms, (uint64_t)(uintptr_t)t->label};
    dtrace_event_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.struct_size = sizeof ctx;
    int cpu = sched_getcpu();
    ctx.cpu = cpu < 0 ? 0 : (uint32_t)cpu;
    ctx.timestamp = now;
    ctx.pid = getpid();
    ctx.ppid = getppid();
    ctx.tid = gettid();
    ctx.uid = getuid();
    ctx.gid = getgid();
    ctx.execname = program_invocation_short_name;
    ctx.nargs = NATIVE_NARGS;
    ctx.args = args;
    ctx.read_memory = read_label;
    ctx.reader_state = tp;
    ctx.flags = DTRACE_EVENT_LIVE_TARGET;
    tp->ops->fire(tp->host, atomic_load(&t->probe), &ctx);
}

/* Whether `value` passes a filter term. Terms on fields this example does not
 * check itself (pid, execname...) pass: the predicate decides them later. */
static bool term_passes(const dtrace_filter_term *term, int64_t interval_ms) {
    if (term->field != DTRACE_FILTER_ARG || term->arg_index != 1)
        return true;
    switch (term->op) {
    case DTRACE_FILTER_EQ:
        return interval_ms == term->value;
    case DTRACE_FILTER_NE:
        return interval_ms != term->value;
    case DTRACE_FILTER_LT:
        return interval_ms < term->value;
    case DTRACE_FILTER_LE:
        return interval_ms <= term->value;
    case DTRACE_FILTER_GT:
        return interval_ms > term->value;
    case DTRACE_FILTER_GE:
        return interval_ms >= term->value;
    default:
        return true;
    }
}

/* Before start: the clauses' hoisted predicates. arg1 (the interval) is fixed
 * per timer, so a filter on it decides once whether the timer fires at all;
 * a real provider would check the terms where its events arise (in the
 * kernel), per event. Ignoring the filters would be as correct, only slower. */
static int tick_set_filters(void *state, dtrace_probe_id probe, uint64_t cookie, uint32_t nfilters,
                            const dtrace_filter *filters) {
    (void)probe;
    tickprov *tp = state;
    if (cookie >= TIMER_COUNT)
        return 0;
    tick_timer *t = &tp->timers[cookie];
    bool any = nfilters == 0;
    for (uint32_t f = 0; f < nfilters && !any; f++) {
        bool all = true;
        for (uint32_t i = 0; i < filters[f].nterms && all; i++)
            all = term_passes(&filters[f].terms[i], t->interval_ms);
        any = all;
    }
    t->filtered_out = !any;
    return 0;
}

static void sleep_until(uint64_t deadline) {
    struct timespec ts = {(time_t)(deadline / NS_PER_S), (long)(deadline % NS_PER_S)};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
        continue;
}

/* The delivery thread: sleeps until the next timer is due, counts its tick,
 * fires it if enabled. Stops within one fast interval of stop(). */
static void *run_timers(void *arg) {
    tickprov *tp = arg;
    const uint64_t start = now_ns();
    for (int i = 0; i < TIMER_COUNT; i++)
        tp->timers[i].next_due = start + (uint64_t)tp->timers[i].interval_ms * NS_PER_MS;
    while (atomic_load(&tp->running)) {
        uint64_t due = UINT64_MAX;
        for (int i = 0; i < TIMER_COUNT; i++)
            due = tp->timers[i].next_due < due ? tp->timers[i].next_due : due;
        sleep_until(due);
        const uint64_t now = now_ns();
        for (int i = 0; i < TIMER_COUNT && atomic_load(&tp->running); i++) {
            tick_timer *t = &tp->timers[i];
            if (now < t->next_due)
                continue;
            t->count++;
            t->next_due += (uint64_t)t->interval_ms * NS_PER_MS;
            if (atomic_load(&t->enabled) && !t->filtered_out && atomic_load(&t->probe) != 0)
                fire_tick(tp, t, now);
        }
    }
    return NULL;
}

static int tick_init(dtrace_host *host, const dtrace_host_ops *ops, void **state) {
    tickprov *tp = calloc(1, sizeof *tp);
    if (tp == NULL) {
        ops->report_error(host, "out of memory");
        return -1;
    }
    tp->host = host;
    tp->ops = ops;
    for (int i = 0; i < TIMER_COUNT; i++) {
        tick_timer *t = &tp->timers[i];
        t->function = timer_specs[i].function;
        t->interval_ms = timer_specs[i].interval_ms;
        t->typed_at_registration = timer_specs[i].typed_at_registration;
        snprintf(t->label, sizeof t->label, "%s timer, %d ms", t->function, t->interval_ms);
    }
    const dtrace_attribute evolving = {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON};
    const dtrace_provider_info info = {
        .struct_size = sizeof info,
        .name = PROVIDER_NAME,
        .attributes = {evolving, evolving, evolving, evolving, evolving},
        .d_source = d_source,
    };
    tp->provider = ops->register_provider(host, &info);
    if (tp->provider == 0) { /* the host has reported why */
        free(tp);
        return -1;
    }
    *state = tp;
    return 0;
}

static int tick_provide(void *state, const dtrace_probe_spec *spec) {
    tickprov *tp = state;
    if (spec != NULL && !(matches(spec->provider, PROVIDER_NAME) && matches(spec->module, MODULE_NAME) &&
                          matches(spec->name, PROBE_NAME)))
        return 0;
    for (int i = 0; i < TIMER_COUNT; i++) {
        tick_timer *t = &tp->timers[i];
        if (spec != NULL && !matches(spec->function, t->function))
            continue;
        const dtrace_probe_desc desc = {
            .struct_size = sizeof desc,
            .module = MODULE_NAME,
            .function = t->function,
            .name = PROBE_NAME,
            .nargs = PROBE_NARGS,
            .args = t->typed_at_registration ? tick_args : NULL,
            .cookie = (uint64_t)i,
        };
        dtrace_probe_id id = tp->ops->register_probe(tp->host, tp->provider, &desc);
        if (id == 0)
            return -1;
        atomic_store(&t->probe, id);
    }
    return 0;
}

static int tick_arg_info(void *state, dtrace_probe_id probe, uint64_t cookie, uint32_t index, dtrace_arg_desc *out) {
    tickprov *tp = state;
    if (index >= PROBE_NARGS) {
        tp->ops->report_error(tp->host, "tick probes have four arguments");
        return -1;
    }
    /* Fill the fields, keep the struct_size the host set. */
    out->native_type = tick_args[index].native_type;
    out->translated_type = tick_args[index].translated_type;
    out->native_index = tick_args[index].native_index;
    return 0;
}

static int set_enabled(tickprov *tp, uint64_t cookie, bool on) {
    if (cookie >= TIMER_COUNT) {
        tp->ops->report_error(tp->host, "no such timer");
        return -1;
    }
    atomic_store(&tp->timers[cookie].enabled, on);
    return 0;
}

static int tick_enable(void *state, dtrace_probe_id probe, uint64_t cookie) {
    return set_enabled(state, cookie, true);
}

static void tick_disable(void *state, dtrace_probe_id probe, uint64_t cookie) {
    set_enabled(state, cookie, false);
}

static int tick_start(void *state) {
    tickprov *tp = state;
    atomic_store(&tp->running, true);
    int err = pthread_create(&tp->thread, NULL, run_timers, tp);
    if (err != 0) {
        atomic_store(&tp->running, false);
        char message[128];
        snprintf(message, sizeof message, "cannot start the timer thread: %s", strerror(err));
        tp->ops->report_error(tp->host, message);
        return -1;
    }
    return 0;
}

static void tick_stop(void *state) {
    tickprov *tp = state;
    atomic_store(&tp->running, false);
    pthread_join(tp->thread, NULL);
}

static void tick_destroy(void *state) {
    free(state);
}

static const dtrace_plugin_ops tickprov_ops = {
    .struct_size = sizeof(dtrace_plugin_ops),
    .abi_version = DTRACE_SDK_ABI_VERSION,
    .name = "tickprov",
    .description = "example provider: tick_example timer probes",
    .init = tick_init,
    .provide = tick_provide,
    .arg_info = tick_arg_info,
    .enable = tick_enable,
    .disable = tick_disable,
    .start = tick_start,
    .stop = tick_stop,
    .destroy = tick_destroy,
    .set_filters = tick_set_filters,
};

/* The host checks our abi_version; a plugin that needed a newer host would
 * return NULL here when host_abi_version is too old. */
DTRACE_PLUGIN_EXPORT const dtrace_plugin_ops *dtrace_plugin_entry(uint32_t host_abi_version) {
    return &tickprov_ops;
}
