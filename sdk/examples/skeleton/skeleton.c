/* skeleton.c: the smallest provider. skeleton:demo:beat:beat fires every 100 ms, its args[0] the string
 * -x skeleton_text=... (default "hi"), read by D through read_text(). ../tickprov/ shows the rest. */
#define _GNU_SOURCE
#include <dtrace/provider.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static dtrace_host *host;
static const dtrace_host_ops *ops;
static dtrace_probe_id probe;
static const char *text;
static pthread_t thread;
static atomic_bool running;
static int64_t read_text(void *state, uint64_t address, void *buffer, size_t length) {
    size_t size = strlen(text) + 1, at = address - (uintptr_t)text; /* only our string is readable */
    if (address < (uintptr_t)text || at >= size)
        return -1;
    length = length < size - at ? length : size - at;
    memcpy(buffer, text + at, length);
    return (int64_t)length;
}

static void *beat(void *unused) {
    for (struct timespec t; atomic_load(&running) && clock_gettime(CLOCK_MONOTONIC, &t) == 0; usleep(100000)) {
        uint64_t args[1] = {(uintptr_t)text};
        /* struct_size, cpu, timestamp (ns), walltimestamp (0: derived), pid, ppid, tid, uid, gid (-1: unknown) */
        dtrace_event_ctx ctx = {sizeof ctx, 0, t.tv_sec * 1000000000ull + t.tv_nsec, 0, getpid(), -1, gettid(), -1, -1};
        ctx.nargs = 1, ctx.args = args, ctx.read_memory = read_text;
        ops->fire(host, probe, &ctx);
    }
    return NULL;
}

static int init(dtrace_host *h, const dtrace_host_ops *o, void **state) {
    host = h, ops = o, text = ops->get_option(host, "skeleton_text");
    dtrace_provider_info info = {sizeof info, .name = "skeleton"};
    static const dtrace_arg_desc args[] = {{sizeof args[0], "char *", "string", 0}};
    dtrace_probe_desc desc = {sizeof desc, "demo", "beat", "beat", 1, args, 0};
    probe = ops->register_probe(host, ops->register_provider(host, &info), &desc);
    return probe == 0 ? -1 : 0; /* the host has said why */
}

static int start(void *state) {
    atomic_store(&running, 1);
    return pthread_create(&thread, NULL, beat, NULL) == 0 ? 0 : -1;
}
static void stop(void *state) {
    atomic_store(&running, 0);
    pthread_join(thread, NULL);
}
static const dtrace_option_desc options[] = {{sizeof *options, "skeleton_text", DTRACE_OPTION_STRING, "hi", "args[0]"}};
static const dtrace_plugin_ops skeleton = {
    sizeof skeleton, DTRACE_SDK_ABI_VERSION, "skeleton",    "minimal provider", .init = init,           .start = start,
    .stop = stop,    .version = "1.0",       .noptions = 1, .options = options, .providers = "skeleton"};
DTRACE_PLUGIN_EXPORT const dtrace_plugin_ops *dtrace_plugin_entry(uint32_t host_abi_version) {
    return &skeleton;
}
