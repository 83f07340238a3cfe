// shared_object.h: an owned dlopen() handle.
//
// A plugin's code must stay mapped for as long as anything may call into it
// (its ops table, its threads, the strings it handed out), so the handle is
// owned by the plugin instance and closed last, after destroy(). Plugins are
// opened RTLD_NOW so that a missing symbol is reported at load time rather
// than as a crash in the middle of a trace, and RTLD_LOCAL so that two plugins
// never resolve each other's symbols.
#pragma once

#include "result.h"

#include <filesystem>

namespace dtrace::host {

class SharedObject {
  public:
    SharedObject() = default; // no library (a built-in plugin)
    ~SharedObject();
    SharedObject(SharedObject &&other) noexcept;
    SharedObject &operator=(SharedObject &&other) noexcept;
    SharedObject(const SharedObject &) = delete;
    SharedObject &operator=(const SharedObject &) = delete;

    // Opens the file; the failure reason is the loader's text without the
    // file name it usually repeats.
    static Result<SharedObject> open(const std::filesystem::path &file);

    // The address of an exported symbol, or nullptr.
    void *symbol(const char *name) const;

  private:
    explicit SharedObject(void *handle) : handle_(handle) {}
    void close();

    void *handle_ = nullptr;
};

} // namespace dtrace::host
