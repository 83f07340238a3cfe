// dtrace -l and -lv: the heading and rows of dtrace.c's list_probe() and the
// stability block of print_probe_info().
#include "test_support.h"

#include "consumer/probe_list_format.h"

namespace dtrace::consumer {
namespace {

using test::spaces;

ProbeListing begin_probe() {
    ProbeListing p;
    p.id = 1;
    p.provider = "dtrace";
    p.name = "BEGIN";
    p.attributes.provider = {DTRACE_STABILITY_STABLE, DTRACE_STABILITY_STABLE, DTRACE_CLASS_COMMON};
    p.attributes.module = {DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN};
    p.attributes.function = {DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN};
    p.attributes.name = {DTRACE_STABILITY_STABLE, DTRACE_STABILITY_STABLE, DTRACE_CLASS_COMMON};
    p.attributes.args = {DTRACE_STABILITY_STABLE, DTRACE_STABILITY_STABLE, DTRACE_CLASS_COMMON};
    return p;
}

TEST(ProbeListFormat, Heading) {
    EXPECT_EQ(probe_list_heading(), "   ID   PROVIDER            MODULE                          FUNCTION NAME\n");
}

TEST(ProbeListFormat, Rows) {
    EXPECT_EQ(probe_list_row(begin_probe()), "    1     dtrace" + spaces(18) + spaces(35) + "BEGIN\n");
    ProbeListing p;
    p.id = 12345;
    p.provider = "syscall";
    p.module = "";
    p.function = "read";
    p.name = "entry";
    EXPECT_EQ(probe_list_row(p), "12345    syscall" + spaces(18) + spaces(30) + "read entry\n");
    // Nothing is truncated: long fields push the rest of the row out.
    p.function = std::string(40, 'f');
    EXPECT_EQ(probe_list_row(p), "12345    syscall" + spaces(18) + " " + p.function + " entry\n");
}

TEST(ProbeListFormat, VerboseBlockWithoutArguments) {
    // dtrace:::BEGIN has an empty module and function, so only the provider
    // and name attributes take part in the description's minimum.
    const std::string expected = "\n\tProbe Description Attributes\n"
                                 "\t\tIdentifier Names: Stable\n"
                                 "\t\tData Semantics:   Stable\n"
                                 "\t\tDependency Class: Common\n"
                                 "\n\tArgument Attributes\n"
                                 "\t\tIdentifier Names: Stable\n"
                                 "\t\tData Semantics:   Stable\n"
                                 "\t\tDependency Class: Common\n"
                                 "\n\tArgument Types\n"
                                 "\t\tNone\n\n";
    EXPECT_EQ(probe_list_details(begin_probe()), expected);
}

TEST(ProbeListFormat, VerboseBlockWithArguments) {
    ProbeListing p = begin_probe();
    p.module = "genunix";
    p.function = "read";
    p.name = "entry";
    p.attributes.name = {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA};
    p.attributes.args = {DTRACE_STABILITY_UNSTABLE, DTRACE_STABILITY_OBSOLETE, DTRACE_CLASS_PLATFORM};
    p.args = {{"int", false}, {"char *", true}};
    const std::string expected = "\n\tProbe Description Attributes\n"
                                 "\t\tIdentifier Names: Private\n"
                                 "\t\tData Semantics:   Private\n"
                                 "\t\tDependency Class: Unknown\n"
                                 "\n\tArgument Attributes\n"
                                 "\t\tIdentifier Names: Unstable\n"
                                 "\t\tData Semantics:   Obsolete\n"
                                 "\t\tDependency Class: Platform\n"
                                 "\n\tArgument Types\n"
                                 "\t\targs[0]: int\n"
                                 "\t\targs[1]: userland char *\n\n";
    EXPECT_EQ(probe_list_details(p), expected);
}

TEST(ProbeListFormat, AttributeMinimumIsPerComponent) {
    ProbeListing p = begin_probe();
    p.module = "m";
    p.attributes.module = {DTRACE_STABILITY_STANDARD, DTRACE_STABILITY_INTERNAL, DTRACE_CLASS_CPU};
    const dtrace_attribute a = probe_description_attributes(p);
    EXPECT_EQ(a.name_stability, DTRACE_STABILITY_STABLE);
    EXPECT_EQ(a.data_stability, DTRACE_STABILITY_INTERNAL);
    EXPECT_EQ(a.dependency_class, DTRACE_CLASS_CPU);
}

TEST(ProbeListFormat, Names) {
    const char *stability[] = {"Internal", "Private",  "Obsolete", "External",
                               "Unstable", "Evolving", "Stable",   "Standard"};
    for (uint8_t i = 0; i < 8; ++i)
        EXPECT_EQ(stability_name(i), stability[i]);
    const char *classes[] = {"Unknown", "CPU", "Platform", "Group", "ISA", "Common"};
    for (uint8_t i = 0; i < 6; ++i)
        EXPECT_EQ(dependency_class_name(i), classes[i]);
    EXPECT_EQ(stability_name(8), "(null)");
    EXPECT_EQ(dependency_class_name(99), "(null)");
}

} // namespace
} // namespace dtrace::consumer
