// btf_type_names.cpp: walking BTF's type headers for typedef names.
#include "btf_type_names.h"

#include <cstring>
#include <fcntl.h>
#include <linux/btf.h>
#include <sys/stat.h>
#include <unistd.h>

namespace dtrace::fbt {

namespace {

// Bytes that follow a type's header, by kind (see linux/btf.h).
size_t trailing_bytes(uint32_t kind, uint32_t vlen) {
    switch (kind) {
    case BTF_KIND_INT:
    case BTF_KIND_VAR:
    case BTF_KIND_DECL_TAG:
        return 4;
    case BTF_KIND_ARRAY:
        return sizeof(btf_array);
    case BTF_KIND_STRUCT:
    case BTF_KIND_UNION:
        return vlen * sizeof(btf_member);
    case BTF_KIND_ENUM:
        return vlen * sizeof(btf_enum);
    case BTF_KIND_ENUM64:
        return vlen * sizeof(btf_enum64);
    case BTF_KIND_FUNC_PROTO:
        return vlen * sizeof(btf_param);
    case BTF_KIND_DATASEC:
        return vlen * sizeof(btf_var_secinfo);
    default: // PTR FWD TYPEDEF VOLATILE CONST RESTRICT FUNC FLOAT TYPE_TAG: none
        return 0;
    }
}

std::vector<char> read_file(const std::string &path) {
    std::vector<char> bytes;
    int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    struct stat st {};
    if (fd < 0 || fstat(fd, &st) != 0 || st.st_size <= 0) {
        if (fd >= 0)
            close(fd);
        return bytes;
    }
    bytes.resize(static_cast<size_t>(st.st_size));
    size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = read(fd, bytes.data() + done, bytes.size() - done);
        if (n <= 0)
            break;
        done += static_cast<size_t>(n);
    }
    close(fd);
    bytes.resize(done);
    return bytes;
}

} // namespace

bool BtfTypeNames::load_from(std::vector<char> image) {
    loaded_ = true;
    usable_ = walk(std::move(image));
    return usable_;
}

bool BtfTypeNames::walk(std::vector<char> image) {
    image_ = std::move(image);
    names_.clear();
    btf_header header;
    if (image_.size() < sizeof header)
        return false;
    std::memcpy(&header, image_.data(), sizeof header);
    const uint64_t types = uint64_t(header.hdr_len) + header.type_off;
    const uint64_t strings = uint64_t(header.hdr_len) + header.str_off;
    if (header.magic != BTF_MAGIC || types + header.type_len > image_.size() ||
        strings + header.str_len > image_.size() || header.str_len == 0)
        return false;
    const char *string_base = image_.data() + strings;
    for (uint64_t at = types; at < types + header.type_len;) {
        btf_type t;
        if (at + sizeof t > types + header.type_len)
            return false;
        std::memcpy(&t, image_.data() + at, sizeof t);
        const uint32_t kind = BTF_INFO_KIND(t.info);
        at += sizeof t + trailing_bytes(kind, BTF_INFO_VLEN(t.info));
        if ((kind == BTF_KIND_TYPEDEF || kind == BTF_KIND_INT) && t.name_off != 0 && t.name_off < header.str_len)
            names_.emplace(string_base + t.name_off, strnlen(string_base + t.name_off, header.str_len - t.name_off));
    }
    return true;
}

bool BtfTypeNames::may_name_type(std::string_view name) {
    if (!loaded_)
        load_from(read_file(path_));
    return !usable_ || names_.count(name) != 0;
}

} // namespace dtrace::fbt
