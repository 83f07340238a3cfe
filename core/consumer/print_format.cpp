// print_format.cpp: print() of a typed value (see print_format.h).
//
// The walk follows DTrace's: every member of a struct (and the value
// itself) is one visit at its nesting depth; a visit first closes the
// braces of deeper structs left open by the visits before it. Array
// elements are visited as depth-0 values one nesting level further in.
#include "consumer/print_format.h"

#include "consumer/cformat.h"

#include <cctype>
#include <cstring>

namespace dtrace::consumer {

namespace {

using compiler::Type;
using compiler::TypeKind;

constexpr int kIndentStep = 4;
constexpr unsigned kBitsPerByte = 8;

bool is_structlike(const Type *resolved) {
    return resolved->kind == TypeKind::Struct || resolved->kind == TypeKind::Union;
}

// A plain char (signed, one byte): printed as a character.
bool is_char(const Type *resolved) {
    return resolved->kind == TypeKind::Integer && resolved->is_char && resolved->is_signed && resolved->size == 1;
}

class TypedPrinter {
  public:
    TypedPrinter(std::string &out, std::string_view data, int nest) : out_(out), data_(data), nest_(nest) {}

    // One visit: `type` named `name` ("" for the value itself or an array
    // element) at bit offset `offset_bits` and depth `depth`, then its
    // members when it is a struct or union.
    void visit(const Type *type, const std::string &name, uint64_t offset_bits, uint32_t bit_width, int depth) {
        close_braces(depth);
        if (depth < depth_)
            out_ += "\n";
        depth_ = depth;
        const Type *r = compiler::resolve(type);
        const std::string type_name = compiler::TypeTable::name_of(type);
        const bool array_member = nest_ != 0 && depth == 0;
        const bool brief = array_member && !is_structlike(r);
        if (!brief) {
            if (array_member)
                out_ += "\n";
            indent();
            out_ += type_name;
            if (!name.empty()) {
                if (type_name.back() != '*' && type_name.back() != ' ')
                    out_ += " ";
                out_ += name;
                if (bit_width != 0)
                    out_ += " :" + std::to_string(bit_width);
                out_ += " =";
            }
            out_ += " ";
        }
        value(r, offset_bits, bit_width);
        if (!brief)
            out_ += "\n";
        if (is_structlike(r))
            for (const compiler::Member &m : r->members)
                visit(m.type, m.name, offset_bits + m.offset_bits, m.bit_width, depth + 1);
    }

    // The braces still open deeper than `depth`; the last without a line break.
    void close_braces(int depth) {
        for (int d = depth_; d > depth; d--) {
            out_ += std::string(static_cast<size_t>((d + nest_ - 1) * kIndentStep), ' ');
            out_ += d == depth + 1 ? "}" : "}\n";
        }
    }

  private:
    void indent() { out_ += std::string(static_cast<size_t>((depth_ + nest_) * kIndentStep), ' '); }

    // `size` bytes at byte `offset`, zero beyond the recorded data.
    uint64_t load(uint64_t offset, size_t size) const {
        uint64_t v = 0;
        if (offset < data_.size())
            std::memcpy(&v, data_.data() + offset, std::min<size_t>(size, std::min<size_t>(8, data_.size() - offset)));
        return v;
    }

    void hex(uint64_t offset, uint64_t size) {
        switch (size) {
        case 1:
        case 2:
        case 4:
            out_ += c_printf("%#x", static_cast<unsigned>(load(offset, size)));
            return;
        case 8:
            out_ += c_printf("%#llx", static_cast<unsigned long long>(load(offset, size)));
            return;
        default:
            out_ += "<invalid size " + std::to_string(size) + ">";
        }
    }

    void bitfield(uint64_t offset_bits, uint32_t bits) {
        uint64_t v = load(offset_bits / kBitsPerByte, (bits + kBitsPerByte - 1) / kBitsPerByte + 1);
        v >>= offset_bits % kBitsPerByte;
        if (bits < 64)
            v &= (uint64_t(1) << bits) - 1;
        out_ += c_printf("%#llx", static_cast<unsigned long long>(v));
    }

    void value(const Type *r, uint64_t offset_bits, uint32_t bit_width) {
        const uint64_t offset = offset_bits / kBitsPerByte;
        switch (r->kind) {
        case TypeKind::Integer:
            if (bit_width != 0 || offset_bits % kBitsPerByte != 0)
                return bitfield(offset_bits, bit_width != 0 ? bit_width : uint32_t(r->size * kBitsPerByte));
            if (is_char(r))
                return character(static_cast<char>(load(offset, 1)));
            return hex(offset, r->size);
        case TypeKind::Float:
            return floating(r, offset);
        case TypeKind::Pointer:
        case TypeKind::Function:
            return hex(offset, 8);
        case TypeKind::Array:
        case TypeKind::String:
            return array(r, offset);
        case TypeKind::Struct:
        case TypeKind::Union:
            out_ += "{";
            return;
        case TypeKind::Enum:
            return enumeration(r, offset);
        default:
            out_ += "<forward decl>";
        }
    }

    void character(char c) {
        if (std::isprint(static_cast<unsigned char>(c)))
            out_ += c_printf("'%c'", c);
        else if (c == '\0')
            out_ += "'\\0'";
        else
            out_ += c_printf("'\\%03o'", static_cast<int>(c));
    }

    void floating(const Type *r, uint64_t offset) {
        if (r->size == sizeof(float)) {
            float f = 0;
            std::memcpy(&f, data_.data() + std::min<uint64_t>(offset, data_.size()),
                        offset + sizeof f <= data_.size() ? sizeof f : 0);
            out_ += c_printf("%+.7e", static_cast<double>(f));
        } else if (r->size == sizeof(double)) {
            const uint64_t bits = load(offset, sizeof(double));
            double d = 0;
            std::memcpy(&d, &bits, sizeof d);
            out_ += c_printf("%+.7e", d);
        } else if (r->size == sizeof(long double) && offset + sizeof(long double) <= data_.size()) {
            long double ld = 0;
            std::memcpy(&ld, data_.data() + offset, sizeof ld);
            out_ += c_printf("%+.16LE", ld);
        } else {
            out_ += "<unknown encoding>";
        }
    }

    void enumeration(const Type *r, uint64_t offset) {
        const auto v = static_cast<int32_t>(load(offset, sizeof(int32_t)));
        for (const compiler::Enumerator &e : r->enumerators) {
            if (e.value == v) {
                out_ += e.name;
                return;
            }
        }
        out_ += std::to_string(v);
    }

    void array(const Type *r, uint64_t offset) {
        // D's string is a char array of strsize bytes.
        const bool string_type = r->kind == TypeKind::String;
        const Type *element = string_type ? nullptr : r->ref;
        const Type *element_r = element ? compiler::resolve(element) : nullptr;
        const uint64_t count = string_type ? r->size : r->count;
        const uint64_t element_size = string_type ? 1 : (count ? r->size / count : 0);
        bool is_string = false;
        if (string_type || is_char(element_r)) {
            uint64_t i = 0;
            char c = 0;
            for (; i < count; i++) {
                c = static_cast<char>(load(offset + i, 1));
                if (!std::isprint(static_cast<unsigned char>(c)) || c == '\0')
                    break;
            }
            is_string = i != count && c == '\0';
        }
        const bool brackets = !is_string || depth_ != 0;
        if (brackets)
            out_ += "[ ";
        if (is_string) {
            out_ += "\"";
            for (uint64_t i = 0; i < count; i++) {
                const char c = static_cast<char>(load(offset + i, 1));
                if (c == '\0')
                    break;
                out_ += c;
            }
            out_ += "\"";
        } else {
            for (uint64_t i = 0; i < count && element; i++) {
                const uint64_t at = offset + element_size * i;
                TypedPrinter nested(out_, at < data_.size() ? data_.substr(at) : std::string_view(),
                                    nest_ + depth_ + 1);
                nested.visit(element, "", 0, 0, 0);
                nested.close_braces(0);
                if (i + 1 != count)
                    out_ += ", ";
                else if (is_structlike(element_r))
                    out_ += "\n";
            }
        }
        if (brackets) {
            if (element_r && is_structlike(element_r))
                indent();
            else
                out_ += " ";
            out_ += "]";
        }
    }

    std::string &out_;
    std::string_view data_;
    int nest_;
    int depth_ = 0;
};

} // namespace

std::string format_print(const compiler::Type &type, std::string_view bytes) {
    std::string out;
    TypedPrinter printer(out, bytes, 0);
    printer.visit(&type, "", 0, 0, 0);
    printer.close_braces(0);
    return out;
}

} // namespace dtrace::consumer
