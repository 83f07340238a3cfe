/*
 * hookprov: a test provider for the SDK entries appended for live tracing:
 * target_changed / get_target / target_setenv, set_filters, lookup_type and
 * lookup_kernel_symbol. It reports what dtrace tells it through
 * report_error, so golden tests (tests/golden/sdk_hooks) read it on stderr.
 *
 * Provider "hook", probe hook:test:event:fire (never fires: the tests end
 * with exit() or when the -c command exits).
 *
 * Types it describes on demand (lookup_type):
 *   struct hook_point { int hp_x; long hp_y; struct hook_point *hp_next; struct hook_other *hp_other; }
 *   struct hook_other { char ho_tag[6]; unsigned int ho_flags : 3; }   (asked for only when used)
 *   hook_point_t       typedef of struct hook_point
 *   enum hook_color    { HOOK_RED = 1, HOOK_BLUE = 4 }
 * Kernel symbols (lookup_kernel_symbol): `hook_jiffies (unsigned long at
 * 0xffffffff81000040) and `hook_ptr (hook_point_t * at 0xffffffff81000080).
 *
 * With HOOKPROV_FAIL_START in dtrace's environment, its start fails (as a
 * live plugin's does when the kernel refuses to attach).
 *
 * Built twice: hookprov.so, and hookprov_old.so whose ops table declares the
 * size it had before these entries existed (HOOKPROV_OLD_TABLE), to show that
 * dtrace never calls past a plugin's table.
 */
#include <dtrace/provider.h>

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

typedef struct hook_state {
    dtrace_host *host;
    const dtrace_host_ops *ops;
    dtrace_provider_id provider;
} hook_state;

static void say(hook_state *s, const char *message) {
    s->ops->report_error(s->host, message);
}

static int hook_init(dtrace_host *host, const dtrace_host_ops *ops, void **state) {
    static hook_state s;
    s.host = host;
    s.ops = ops;
    dtrace_provider_info info = {.struct_size = sizeof info, .name = "hook"};
    s.provider = ops->register_provider(host, &info);
    *state = &s;
    return s.provider == 0 ? -1 : 0;
}

static int hook_provide(void *state, const dtrace_probe_spec *spec) {
    (void)spec;
    hook_state *s = state;
    dtrace_probe_desc desc = {.struct_size = sizeof desc, .module = "test", .function = "event", .name = "fire"};
    return s->ops->register_probe(s->host, s->provider, &desc) == 0 ? -1 : 0;
}

static const char *state_names[] = {"?", "created", "stopped", "running", "exited"};

static void hook_target_changed(void *state, int64_t pid, uint32_t new_state) {
    hook_state *s = state;
    dtrace_target_info target = {.struct_size = sizeof target};
    char message[160];
    const char *which = "an unknown target";
    if (s->ops->get_target(s->host, 0, &target) == 0 && target.pid == pid)
        which = target.flags & DTRACE_TARGET_FROM_COMMAND ? "$target (-c)" : "$target (-p)";
    snprintf(message, sizeof message, "%s: %s", which,
             new_state < COUNT_OF(state_names) ? state_names[new_state] : "?");
    say(s, message);
    if (new_state == DTRACE_TARGET_CREATED && s->ops->target_setenv(s->host, pid, "HOOKPROV_MARK", "set by hookprov"))
        say(s, "target_setenv failed");
}

static const char *field_names[] = {"?", "pid", "tid", "uid", "gid", "execname", "arg"};
static const char *op_names[] = {"?", "==", "!=", "<", "<=", ">", ">="};

static int hook_set_filters(void *state, dtrace_probe_id probe, uint64_t cookie, uint32_t nfilters,
                            const dtrace_filter *filters) {
    (void)probe;
    (void)cookie;
    char text[1024] = "filters:";
    size_t used = strlen(text);
    if (nfilters == 0)
        snprintf(text + used, sizeof text - used, " none (every event)");
    for (uint32_t f = 0; f < nfilters; f++) {
        used += (size_t)snprintf(text + used, sizeof text - used, "%s (", f ? " or" : "");
        for (uint32_t t = 0; t < filters[f].nterms && used < sizeof text; t++) {
            const dtrace_filter_term *term = &filters[f].terms[t];
            char field[16];
            if (term->field == DTRACE_FILTER_ARG)
                snprintf(field, sizeof field, "arg%u", term->arg_index);
            else
                snprintf(field, sizeof field, "%s",
                         term->field < COUNT_OF(field_names) ? field_names[term->field] : "?");
            if (term->field == DTRACE_FILTER_EXECNAME)
                used += (size_t)snprintf(text + used, sizeof text - used, "%s%s %s \"%s\"", t ? " && " : "", field,
                                         op_names[term->op % COUNT_OF(op_names)], term->string);
            else
                used += (size_t)snprintf(text + used, sizeof text - used, "%s%s %s %lld", t ? " && " : "", field,
                                         op_names[term->op % COUNT_OF(op_names)], (long long)term->value);
        }
        if (used < sizeof text)
            used += (size_t)snprintf(text + used, sizeof text - used, ")");
    }
    say(state, text);
    return 0;
}

/* The type graphs, one per name asked. Indices refer within each graph. */
enum { P_POINT, P_INT, P_LONG, P_PTR_POINT, P_OTHER, P_PTR_OTHER, P_COUNT };
static const dtrace_type_member point_members[] = {
    {sizeof(dtrace_type_member), "hp_x", P_INT, 0, 0},
    {sizeof(dtrace_type_member), "hp_y", P_LONG, 0, 64},
    {sizeof(dtrace_type_member), "hp_next", P_PTR_POINT, 0, 128},
    {sizeof(dtrace_type_member), "hp_other", P_PTR_OTHER, 0, 192},
};
static const dtrace_type_node point_nodes[P_COUNT] = {
    [P_POINT] = {sizeof(dtrace_type_node), DTRACE_TYPE_STRUCT, "hook_point", 32, 0, 0, 0, COUNT_OF(point_members),
                 point_members, 0, NULL},
    [P_INT] = {sizeof(dtrace_type_node), DTRACE_TYPE_INTEGER, "int", 4, 1, 0, 0, 0, NULL, 0, NULL},
    [P_LONG] = {sizeof(dtrace_type_node), DTRACE_TYPE_INTEGER, "long int", 8, 1, 0, 0, 0, NULL, 0, NULL},
    [P_PTR_POINT] = {sizeof(dtrace_type_node), DTRACE_TYPE_POINTER, NULL, 8, 0, P_POINT, 0, 0, NULL, 0, NULL},
    /* Named only: described when a program uses it. */
    [P_OTHER] = {sizeof(dtrace_type_node), DTRACE_TYPE_NAMED, "struct hook_other", 0, 0, 0, 0, 0, NULL, 0, NULL},
    [P_PTR_OTHER] = {sizeof(dtrace_type_node), DTRACE_TYPE_POINTER, NULL, 8, 0, P_OTHER, 0, 0, NULL, 0, NULL},
};

enum { O_OTHER, O_TAG, O_CHAR, O_UINT, O_COUNT };
static const dtrace_type_member other_members[] = {
    {sizeof(dtrace_type_member), "ho_tag", O_TAG, 0, 0},
    {sizeof(dtrace_type_member), "ho_flags", O_UINT, 3, 64},
};
static const dtrace_type_node other_nodes[O_COUNT] = {
    [O_OTHER] = {sizeof(dtrace_type_node), DTRACE_TYPE_STRUCT, "hook_other", 12, 0, 0, 0, COUNT_OF(other_members),
                 other_members, 0, NULL},
    [O_TAG] = {sizeof(dtrace_type_node), DTRACE_TYPE_ARRAY, NULL, 6, 0, O_CHAR, 6, 0, NULL, 0, NULL},
    [O_CHAR] = {sizeof(dtrace_type_node), DTRACE_TYPE_INTEGER, "char", 1, 1, 0, 0, 0, NULL, 0, NULL},
    [O_UINT] = {sizeof(dtrace_type_node), DTRACE_TYPE_INTEGER, "unsigned int", 4, 0, 0, 0, 0, NULL, 0, NULL},
};

static const dtrace_type_node typedef_nodes[] = {
    {sizeof(dtrace_type_node), DTRACE_TYPE_TYPEDEF, "hook_point_t", 0, 0, 1, 0, 0, NULL, 0, NULL},
    {sizeof(dtrace_type_node), DTRACE_TYPE_NAMED, "struct hook_point", 0, 0, 0, 0, 0, NULL, 0, NULL},
};

static const dtrace_type_enumerator colors[] = {
    {sizeof(dtrace_type_enumerator), "HOOK_RED", 1},
    {sizeof(dtrace_type_enumerator), "HOOK_BLUE", 4},
};
static const dtrace_type_node enum_nodes[] = {
    {sizeof(dtrace_type_node), DTRACE_TYPE_ENUM, "hook_color", 4, 0, 0, 0, 0, NULL, COUNT_OF(colors), colors},
};

#define GRAPH(nodes)                                                                                                   \
    { sizeof(dtrace_type_graph), COUNT_OF(nodes), nodes, 0 }
static const struct {
    const char *name;
    dtrace_type_graph graph;
} graphs[] = {
    {"struct hook_point", GRAPH(point_nodes)},
    {"struct hook_other", GRAPH(other_nodes)},
    {"hook_point_t", GRAPH(typedef_nodes)},
    {"enum hook_color", GRAPH(enum_nodes)},
};

static int hook_lookup_type(void *state, const char *name, const dtrace_type_graph **out) {
    for (size_t i = 0; i < COUNT_OF(graphs); i++) {
        if (strcmp(graphs[i].name, name) == 0) {
            char message[96];
            snprintf(message, sizeof message, "lookup_type(%s)", name);
            say(state, message);
            *out = &graphs[i].graph;
            return 0;
        }
    }
    return -1;
}

static int hook_lookup_kernel_symbol(void *state, const char *module, const char *name, dtrace_kernel_symbol *out) {
    (void)state;
    if (module[0] != '\0' && strcmp(module, "vmlinux") != 0)
        return -1;
    if (strcmp(name, "hook_jiffies") == 0) {
        out->address = 0xffffffff81000040ull;
        out->type = "unsigned long";
        return 0;
    }
    if (strcmp(name, "hook_ptr") == 0) {
        out->address = 0xffffffff81000080ull;
        out->type = "hook_point_t *";
        return 0;
    }
    return -1;
}

static int hook_start(void *state) {
    if (getenv("HOOKPROV_FAIL_START") == NULL)
        return 0;
    say(state, "the kernel refused to attach (HOOKPROV_FAIL_START)");
    return -1;
}

static void hook_stop(void *state) {
    (void)state;
}

static const dtrace_plugin_ops ops = {
#ifdef HOOKPROV_OLD_TABLE
    /* The table as a plugin built before the appended entries declares it. */
    .struct_size = offsetof(dtrace_plugin_ops, consume_action) + sizeof(void (*)(void)),
    .name = "hookprov_old",
#else
    .struct_size = sizeof(dtrace_plugin_ops),
    .name = "hookprov",
#endif
    .abi_version = DTRACE_SDK_ABI_VERSION,
    .description = "test provider of the live-tracing SDK hooks",
    .init = hook_init,
    .provide = hook_provide,
    .start = hook_start,
    .stop = hook_stop,
    .target_changed = hook_target_changed,
    .set_filters = hook_set_filters,
    .lookup_type = hook_lookup_type,
    .lookup_kernel_symbol = hook_lookup_kernel_symbol,
};

DTRACE_PLUGIN_EXPORT const dtrace_plugin_ops *dtrace_plugin_entry(uint32_t host_abi_version) {
    (void)host_abi_version;
    return &ops;
}
