/* many_probes_plugin.c: a provider with BENCH_PROBES probes (default
 * 100,000) and nothing to fire, to time listing and matching. */
#include <dtrace/provider.h>

#include <stdio.h>
#include <stdlib.h>

static const dtrace_attribute kAttr = {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON};

typedef struct bench_state {
    dtrace_host *host;
    const dtrace_host_ops *ops;
    dtrace_provider_id provider;
    int provided;
} bench_state;

static int bench_init(dtrace_host *host, const dtrace_host_ops *ops, void **state) {
    dtrace_provider_info info = {0};
    info.struct_size = sizeof info;
    info.name = "bench";
    info.attributes.provider = info.attributes.module = info.attributes.function = info.attributes.name =
        info.attributes.args = kAttr;
    bench_state *s = calloc(1, sizeof *s);
    if (!s)
        return -1;
    s->host = host;
    s->ops = ops;
    s->provider = ops->register_provider(host, &info);
    *state = s;
    return s->provider ? 0 : -1;
}

static int bench_provide(void *state, const dtrace_probe_spec *spec) {
    bench_state *s = state;
    if (s->provided)
        return 0;
    s->provided = 1;
    const char *env = getenv("BENCH_PROBES");
    long count = env ? strtol(env, NULL, 10) : 100000;
    static const dtrace_arg_desc args[2] = {{sizeof(dtrace_arg_desc), "uint64_t", NULL, 0},
                                            {sizeof(dtrace_arg_desc), "int", NULL, 1}};
    char function[32];
    for (long i = 0; i < count; i++) {
        snprintf(function, sizeof function, "func%06ld", i);
        dtrace_probe_desc desc = {0};
        desc.struct_size = sizeof desc;
        desc.module = i % 2 ? "mododd" : "modeven";
        desc.function = function;
        desc.name = "entry";
        desc.nargs = 2;
        desc.args = args;
        if (s->ops->register_probe(s->host, s->provider, &desc) == 0)
            return -1;
    }
    return 0;
}

static void bench_destroy(void *state) {
    free(state);
}

static const dtrace_plugin_ops kOps = {
    sizeof(dtrace_plugin_ops),
    DTRACE_SDK_ABI_VERSION,
    "bench",
    "many probes for benchmarks",
    0,
    bench_init,
    bench_provide,
    NULL,
    NULL,
    NULL,
    NULL,
    NULL,
    bench_destroy,
};

DTRACE_PLUGIN_EXPORT const dtrace_plugin_ops *dtrace_plugin_entry(uint32_t host_abi_version) {
    (void)host_abi_version;
    return &kOps;
}
