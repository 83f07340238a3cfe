// subr_path.cpp: basename(), dirname() and cleanpath(), with the results
// illumos DTrace gives — including its quirks, which scripts may rely on:
// an empty path names ".", a path of slashes names "/", and cleanpath()
// resolves ".." textually (so "a/../b" becomes "/b").
#include "dif/subr_impl.h"

namespace dtrace::dif::subr {

namespace {

constexpr std::string_view kCurrentDirectory = ".";
constexpr std::string_view kRoot = "/";
// cleanpath() stops before an output that could not take one more "/..c"
// and its NUL (DTrace's bound).
constexpr size_t kCleanpathReserve = 5;

constexpr size_t kNone = std::string_view::npos;

// Last index at or before `from` whose character is (or is not) a slash.
size_t scan_back(std::string_view s, size_t from, bool want_slash) {
    for (size_t i = from + 1; i-- > 0;)
        if ((s[i] == '/') == want_slash)
            return i;
    return kNone;
}

uint64_t result(SubrContext &ctx, std::string_view text) {
    StringBuilder out(ctx);
    out.append(text);
    return out.finish();
}

uint64_t split_path(SubrContext &ctx, Args args, bool want_dirname) {
    auto path = ctx.string(args[0]);
    if (!path)
        return 0;
    std::string_view s = path->empty() ? kCurrentDirectory : *path;
    size_t last_base = scan_back(s, s.size() - 1, false);
    if (last_base == kNone)
        return result(ctx, kRoot);
    size_t slash = scan_back(s, last_base, true);
    if (slash == kNone)
        return result(ctx, want_dirname ? kCurrentDirectory : s.substr(0, last_base + 1));
    if (!want_dirname)
        return result(ctx, s.substr(slash + 1, last_base - slash));
    size_t last_dir = slash == 0 ? kNone : scan_back(s, slash - 1, false);
    return result(ctx, last_dir == kNone ? kRoot : s.substr(0, last_dir + 1));
}

} // namespace

uint64_t basename(SubrContext &ctx, Args args) {
    return split_path(ctx, args, false);
}
uint64_t dirname(SubrContext &ctx, Args args) {
    return split_path(ctx, args, true);
}

// Copies the path, collapsing "//" and "/./", and resolving "/.." by
// dropping the output back to its previous slash. As in DTrace the output is
// written into a buffer in place, and a final "/.." with no slash before it
// leaves the buffer's first byte as the whole result: "a/../.." gives "a",
// the byte "a/" wrote there. Where this call never wrote that byte ("/..")
// DTrace shows what its scratch held; we give the fresh, zeroed buffer's
// empty string.
uint64_t cleanpath(SubrContext &ctx, Args args) {
    auto path = ctx.string(args[0]);
    if (!path)
        return 0;
    const std::string_view s = *path;
    size_t next = 0;
    auto read = [&] { return next < s.size() ? s[next++] : (next++, '\0'); };

    std::string dest(ctx.strsize(), '\0');
    size_t j = 0;
    auto put = [&](char c) { dest[j++] = c; };
    char c = read();
    while (j + kCleanpathReserve < dest.size() && c != '\0') {
        if (c != '/') {
            put(c);
            c = read();
            continue;
        }
        char c1 = read();
        if (c1 == '/')
            continue; // "//": handle the second slash afresh
        if (c1 != '.') {
            put('/');
            put(c1);
            c = c1 == '\0' ? c1 : read();
            continue;
        }
        char c2 = read();
        if (c2 == '/')
            continue; // "/./": drop it, c is still '/'
        if (c2 != '.') {
            put('/');
            put('.');
            put(c2);
            c = c2 == '\0' ? c2 : read();
            continue;
        }
        char c3 = read();
        if (c3 != '/' && c3 != '\0') {
            put('/');
            put('.');
            put('.');
            put(c3);
            c = read();
            continue;
        }
        // "/../" or a final "/..": back up to the previous slash (or the start).
        while (j != 0 && dest[--j] != '/') {
        }
        if (c3 == '\0') {
            ++j; // a final "/.." keeps the byte it backed up to
            break;
        }
        c = '/'; // the slash after ".." starts the next component
    }
    dest.resize(j);
    return result(ctx, dest.c_str());
}

} // namespace dtrace::dif::subr
