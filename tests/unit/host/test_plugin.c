/*
 * test_plugin.c: the plugins the host unit tests load, one source compiled
 * once per behaviour (TEST_PLUGIN_<VARIANT> is defined by CMakeLists.txt).
 *
 *   GOOD         provider "goodprov": probe mod:func:hit (typed at
 *                registration) and mod:func:lazy (typed through arg_info);
 *                start() fires "hit" from its own thread with known ctx fields
 *   START_FAILS  plugin "startfail": start() reports "device busy" and fails
 *   ROGUE        plugin "rogue": misuses every host op it can
 *   INIT_FAILS   registers its provider, then fails init
 *   BAD_ABI, SMALL_TABLE, DECLINES, NO_ENTRY: refused at load
 *
 * Plugins append "<name> start", "<name> stop", "<name> destroy" to the file
 * named by the test_log option so the tests can check the order of teardown.
 */
#include <dtrace/provider.h>

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#ifndef TEST_PLUGIN_NAME
#error "TEST_PLUGIN_NAME must be defined"
#endif

#define LAZY_NARGS 2u
#define HIT_NARGS 3u
#define UNSUPPORTED_ABI_VERSION 99u
#define TRUNCATED_TABLE_SIZE 8u

static struct {
    dtrace_host *host;
    const dtrace_host_ops *ops;
    dtrace_provider_id provider;
    dtrace_probe_id hit;
    char log_path[1024];
    pthread_t thread;
} self;

static const char label[] = "hello";

static void log_line(const char *line) {
    FILE *f = self.log_path[0] != '\0' ? fopen(self.log_path, "a") : NULL;
    if (f != NULL) {
        fprintf(f, "%s %s\n", TEST_PLUGIN_NAME, line);
        fclose(f);
    }
}

/* Reads only the bytes of `label`: any other address is unreadable. */
static int64_t read_label(void *state, uint64_t address, void *buffer, size_t length) {
    uint64_t base = (uint64_t)(uintptr_t)label;
    if (address < base || address >= base + sizeof label)
        return -1;
    size_t available = (size_t)(base + sizeof label - address);
    size_t n = length < available ? length : available;
    memcpy(buffer, label + (address - base), n);
    return (int64_t)n;
}

static int init(dtrace_host *host, const dtrace_host_ops *ops, void **state) {
    self.host = host;
    self.ops = ops;
    const char *log = ops->get_option(host, "test_log");
    snprintf(self.log_path, sizeof self.log_path, "%s", log != NULL ? log : "");
    dtrace_provider_info info = {sizeof info, TEST_PLUGIN_NAME "prov", {{0}}, "typedef int good_t;"};
    self.provider = ops->register_provider(host, &info);
    *state = &self;
#if defined(TEST_PLUGIN_INIT_FAILS)
    ops->report_error(host, "no widgets here");
    return -1;
#endif
    return self.provider != 0 ? 0 : -1;
}

static int provide(void *state, const dtrace_probe_spec *spec) {
    const char *name = spec != NULL ? spec->name : "";
    if (strcmp(name, "complain") == 0)
        self.ops->report_error(self.host, "complaint");
    if (strcmp(name, "fail") == 0) {
        self.ops->report_error(self.host, "cannot provide that");
        return -1;
    }
    static const dtrace_arg_desc hit_args[HIT_NARGS] = {
        {sizeof(dtrace_arg_desc), "uint64_t", NULL, 0},
        {sizeof(dtrace_arg_desc), "char *", NULL, 1},
        {sizeof(dtrace_arg_desc), "int", "good_t", 0},
    };
    dtrace_probe_desc hit = {sizeof hit, "mod", "func", "hit", HIT_NARGS, hit_args, 1};
    dtrace_probe_desc lazy = {sizeof lazy, "mod", "func", "lazy", LAZY_NARGS, NULL, 2};
    self.hit = self.ops->register_probe(self.host, self.provider, &hit);
    self.ops->register_probe(self.host, self.provider, &lazy);
#if defined(TEST_PLUGIN_ROGUE)
    dtrace_probe_desc unnamed = {sizeof unnamed, "mod", "func", NULL, 0, NULL, 3};
    self.ops->register_probe(self.host, self.provider, &unnamed);
    self.ops->register_probe(self.host, self.provider + 1000, &hit);
#endif
    return 0;
}

static int arg_info(void *state, dtrace_probe_id probe, uint64_t cookie, uint32_t index, dtrace_arg_desc *out) {
    static const char *const types[LAZY_NARGS] = {"int", "char *"};
    if (index >= LAZY_NARGS) {
        self.ops->report_error(self.host, "no such argument");
        return -1;
    }
    out->native_type = types[index];
    out->native_index = (uint8_t)index;
    return 0;
}

static int enable(void *state, dtrace_probe_id probe, uint64_t cookie) {
    if (cookie == 2) {
        self.ops->report_error(self.host, "lazy probes cannot be enabled");
        return -1;
    }
    return 0;
}

static void *deliver(void *arg) {
    uint64_t args[HIT_NARGS] = {7, (uint64_t)(uintptr_t)label, 5};
    dtrace_event_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.struct_size = sizeof ctx;
    ctx.cpu = 3;
    ctx.timestamp = 1234;
    ctx.pid = 42;
    ctx.tid = 43;
    ctx.execname = "goodexec";
    ctx.nargs = HIT_NARGS;
    ctx.args = args;
    ctx.read_memory = read_label;
    ctx.flags = DTRACE_EVENT_LIVE_TARGET;
#if defined(TEST_PLUGIN_ROGUE)
    ctx.struct_size = 4;
    self.ops->fire(self.host, self.hit, &ctx);
    self.ops->fire(self.host, self.hit, &ctx);
    self.ops->fire(self.host, self.hit, NULL);
#else
    self.ops->report_drops(self.host, 3, 2, DTRACE_DROP_PRINCIPAL);
    self.ops->report_error(self.host, "from thread");
    self.ops->fire(self.host, self.hit, &ctx);
#endif
    return NULL;
}

static int start(void *state) {
#if defined(TEST_PLUGIN_START_FAILS)
    self.ops->report_error(self.host, "device busy");
    return -1;
#endif
    log_line("start");
    return pthread_create(&self.thread, NULL, deliver, NULL) == 0 ? 0 : -1;
}

static void stop(void *state) {
    pthread_join(self.thread, NULL);
    log_line("stop");
}

static void destroy(void *state) {
    log_line("destroy");
}

static const dtrace_plugin_ops plugin_ops = {
#if defined(TEST_PLUGIN_SMALL_TABLE)
    .struct_size = TRUNCATED_TABLE_SIZE,
#else
    .struct_size = sizeof(dtrace_plugin_ops),
#endif
#if defined(TEST_PLUGIN_BAD_ABI)
    .abi_version = UNSUPPORTED_ABI_VERSION,
#else
    .abi_version = DTRACE_SDK_ABI_VERSION,
#endif
    .name = TEST_PLUGIN_NAME,
    .description = "host unit test plugin",
    .init = init,
    .provide = provide,
    .arg_info = arg_info,
    .enable = enable,
    .start = start,
    .stop = stop,
    .destroy = destroy,
};

#if defined(TEST_PLUGIN_NO_ENTRY)
DTRACE_PLUGIN_EXPORT const dtrace_plugin_ops *not_the_entry(uint32_t host_abi_version) {
    return &plugin_ops;
}
#else
DTRACE_PLUGIN_EXPORT const dtrace_plugin_ops *dtrace_plugin_entry(uint32_t host_abi_version) {
#if defined(TEST_PLUGIN_DECLINES)
    /* Only a host of another ABI version would do. */
    return host_abi_version == UNSUPPORTED_ABI_VERSION ? &plugin_ops : NULL;
#else
    return &plugin_ops;
#endif
}
#endif
