// process_info.cpp: psinfo/lwpsinfo records from the event and /proc.
#include "process_info.h"

#include <cstring>
#include <sstream>

#include "tracefs.h"

namespace dtrace::live {

namespace {

constexpr size_t kPsargsMax = 80; // PRARGSZ
constexpr size_t kMaxCachedProcesses = 4096;
constexpr uint64_t kModelLp64 = 2;   // PR_MODEL_LP64
constexpr uint64_t kStateOnProc = 6; // SONPROC: the firing thread is on a CPU
constexpr char kSnameOnProc = 'O';

// /proc/PID/stat's fields after the parenthesised comm (which may hold
// blanks): index 0 is the state (field 3 of proc(5)).
std::vector<std::string> stat_fields(const std::string &path) {
    std::vector<std::string> fields;
    Result<std::string> text = read_text_file(path);
    if (!text)
        return fields;
    size_t close = text.value().rfind(')');
    if (close == std::string::npos)
        return fields;
    std::istringstream in(text.value().substr(close + 1));
    std::string field;
    while (in >> field)
        fields.push_back(field);
    return fields;
}

int64_t field_number(const std::vector<std::string> &fields, size_t proc5_index) {
    const size_t i = proc5_index - 3; // proc(5) numbers fields from 1; the state is 3
    return i < fields.size() ? std::strtoll(fields[i].c_str(), nullptr, 10) : 0;
}

// "Uid:\t0\t0\t0\t0": the second number (effective).
int64_t effective_id(const std::string &status, const char *key) {
    size_t at = status.find(key);
    if (at == std::string::npos)
        return 0;
    std::istringstream in(status.substr(at + std::strlen(key)));
    int64_t real = 0, effective = 0;
    in >> real >> effective;
    return effective;
}

const char *class_name(int64_t policy) {
    switch (policy) {
    case 1: // SCHED_FIFO
    case 2: // SCHED_RR
        return "RT";
    case 5: // SCHED_IDLE
        return "IA";
    case 6: // SCHED_DEADLINE
        return "DL";
    default: // SCHED_OTHER, SCHED_BATCH
        return "TS";
    }
}

} // namespace

ProcessFacts read_process_facts(const std::string &dir) {
    ProcessFacts facts;
    std::vector<std::string> stat = stat_fields(dir + "/stat");
    facts.pgid = field_number(stat, 5);
    facts.sid = field_number(stat, 6);
    facts.tty = field_number(stat, 7);
    facts.nlwp = field_number(stat, 20);
    facts.arg_start = static_cast<uint64_t>(field_number(stat, 48));
    facts.env_start = static_cast<uint64_t>(field_number(stat, 50));
    if (Result<std::string> status = read_text_file(dir + "/status")) {
        facts.euid = effective_id(status.value(), "Uid:");
        facts.egid = effective_id(status.value(), "Gid:");
    }
    if (Result<std::string> cmdline = read_text_file(dir + "/cmdline")) {
        for (char c : cmdline.value()) {
            if (c == '\0')
                facts.argc++;
            facts.psargs += c == '\0' ? ' ' : c;
        }
        while (!facts.psargs.empty() && facts.psargs.back() == ' ')
            facts.psargs.pop_back();
        if (facts.psargs.size() > kPsargsMax)
            facts.psargs.resize(kPsargsMax);
    }
    return facts;
}

ThreadFacts read_thread_facts(const std::string &stat_path) {
    std::vector<std::string> stat = stat_fields(stat_path);
    return {field_number(stat, 19), field_number(stat, 18), class_name(field_number(stat, 41))};
}

const ProcessFacts &ProcessInfo::facts_of(uint32_t pid) {
    auto it = processes_.find(pid);
    if (it != processes_.end() && it->second.comm == record_->comm)
        return it->second;
    if (processes_.size() >= kMaxCachedProcesses)
        processes_.clear();
    ProcessFacts facts = read_process_facts("/proc/" + std::to_string(pid));
    facts.comm = record_->comm;
    return processes_.insert_or_assign(pid, std::move(facts)).first->second;
}

void ProcessInfo::build_psinfo() {
    const live_record &r = *record_;
    const ProcessFacts &f = facts_of(r.pid);
    psinfo_ = {};
    psinfo_[ps::Nlwp] = static_cast<uint64_t>(f.nlwp);
    psinfo_[ps::Pid] = r.pid;
    psinfo_[ps::Ppid] = r.ppid;
    psinfo_[ps::Pgid] = static_cast<uint64_t>(f.pgid);
    psinfo_[ps::Sid] = static_cast<uint64_t>(f.sid);
    psinfo_[ps::Uid] = r.uid;
    psinfo_[ps::Euid] = static_cast<uint64_t>(f.euid);
    psinfo_[ps::Gid] = r.gid;
    psinfo_[ps::Egid] = static_cast<uint64_t>(f.egid);
    psinfo_[ps::Addr] = r.task;
    psinfo_[ps::Ttydev] = static_cast<uint64_t>(f.tty);
    psinfo_[ps::Fname] = text_address(ProcessText::Fname);
    psinfo_[ps::Psargs] = text_address(ProcessText::Psargs);
    psinfo_[ps::Argc] = static_cast<uint64_t>(f.argc);
    psinfo_[ps::Argv] = f.arg_start;
    psinfo_[ps::Envp] = f.env_start;
    psinfo_[ps::Dmodel] = kModelLp64;
    fname_ = r.comm;
    psargs_ = f.psargs;
    psinfo_built_ = true;
}

void ProcessInfo::build_lwpsinfo() {
    const live_record &r = *record_;
    const ThreadFacts thread =
        read_thread_facts("/proc/" + std::to_string(r.pid) + "/task/" + std::to_string(r.tid) + "/stat");
    lwpsinfo_ = {};
    lwpsinfo_[lwp::Lwpid] = r.tid;
    lwpsinfo_[lwp::Addr] = r.task;
    lwpsinfo_[lwp::State] = kStateOnProc;
    lwpsinfo_[lwp::Sname] = static_cast<uint64_t>(kSnameOnProc);
    lwpsinfo_[lwp::Nice] = static_cast<uint64_t>(thread.nice);
    lwpsinfo_[lwp::Syscall] = static_cast<uint64_t>(r.syscall_nr < 0 ? 0 : r.syscall_nr);
    lwpsinfo_[lwp::Oldpri] = static_cast<uint64_t>(thread.priority);
    lwpsinfo_[lwp::Cpu] = r.cpu;
    lwpsinfo_[lwp::Pri] = static_cast<uint64_t>(thread.priority);
    lwpsinfo_[lwp::Clname] = text_address(ProcessText::Clname);
    lwpsinfo_[lwp::Name] = text_address(ProcessText::Name);
    lwpsinfo_[lwp::Onpro] = r.cpu;
    lwpsinfo_[lwp::Bindpro] = static_cast<uint64_t>(-1);
    lwpsinfo_[lwp::Bindpset] = static_cast<uint64_t>(-1);
    clname_ = thread.class_name;
    name_ = r.comm;
    lwpsinfo_built_ = true;
}

const std::string *ProcessInfo::text(uint64_t slot_address) const {
    switch (static_cast<ProcessText>((slot_address - kProcessTextBase) / kProcessTextSlot)) {
    case ProcessText::Fname:
        return &fname_;
    case ProcessText::Psargs:
        return &psargs_;
    case ProcessText::Clname:
        return &clname_;
    case ProcessText::Name:
        return &name_;
    }
    return nullptr;
}

int64_t ProcessInfo::read(uint64_t address, void *buffer, size_t length) {
    if (record_ == nullptr || !owns(address))
        return -1;
    if (FileRecords::owns(address))
        return files_.read(address, buffer, length);
    const uint8_t *base = nullptr;
    size_t size = 0;
    if (address >= kPsinfoAddress && address < kPsinfoAddress + sizeof psinfo_) {
        if (!psinfo_built_)
            build_psinfo();
        base = reinterpret_cast<const uint8_t *>(psinfo_.data()) + (address - kPsinfoAddress);
        size = sizeof psinfo_ - (address - kPsinfoAddress);
    } else if (address >= kLwpsinfoAddress && address < kLwpsinfoAddress + sizeof lwpsinfo_) {
        if (!lwpsinfo_built_)
            build_lwpsinfo();
        base = reinterpret_cast<const uint8_t *>(lwpsinfo_.data()) + (address - kLwpsinfoAddress);
        size = sizeof lwpsinfo_ - (address - kLwpsinfoAddress);
    } else if (address >= kProcessTextBase) {
        const uint64_t slot = address - (address - kProcessTextBase) % kProcessTextSlot;
        const std::string *s = text(slot);
        if (s == nullptr)
            return -1;
        const size_t offset = static_cast<size_t>(address - slot);
        if (offset > s->size())
            return -1;
        base = reinterpret_cast<const uint8_t *>(s->c_str()) + offset;
        size = s->size() + 1 - offset; // with its NUL
    } else {
        return -1;
    }
    const size_t n = length < size ? length : size;
    std::memcpy(buffer, base, n);
    return static_cast<int64_t>(n);
}

} // namespace dtrace::live
