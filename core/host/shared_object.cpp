// shared_object.cpp: dlopen/dlsym/dlclose behind an RAII handle.
#include "shared_object.h"

#include <dlfcn.h>

#include <string_view>
#include <utility>

namespace dtrace::host {

namespace {

// dlerror() usually reads "<file>: <why>"; callers already name the file.
std::string loader_reason(const std::filesystem::path &file) {
    const char *text = dlerror();
    if (text == nullptr)
        return "cannot be loaded";
    std::string_view reason(text);
    const std::string prefix = file.string() + ": ";
    if (reason.starts_with(prefix))
        reason.remove_prefix(prefix.size());
    return std::string(reason);
}

} // namespace

SharedObject::~SharedObject() {
    close();
}

SharedObject::SharedObject(SharedObject &&other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}

SharedObject &SharedObject::operator=(SharedObject &&other) noexcept {
    if (this != &other) {
        close();
        handle_ = std::exchange(other.handle_, nullptr);
    }
    return *this;
}

Result<SharedObject> SharedObject::open(const std::filesystem::path &file) {
    void *handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr)
        return Failure{loader_reason(file)};
    return SharedObject(handle);
}

void *SharedObject::symbol(const char *name) const {
    return handle_ == nullptr ? nullptr : dlsym(handle_, name);
}

void SharedObject::close() {
    if (handle_ != nullptr)
        dlclose(std::exchange(handle_, nullptr));
}

} // namespace dtrace::host
