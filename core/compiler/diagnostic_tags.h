// diagnostic_tags.h: DTrace's compile-time error tags ([D_SYNTAX] ...), one
// row each, with what raises it.
//
// Every diagnostic names its tag from this table (Tag::D_SYNTAX), so a
// misspelt tag does not compile; the text printed under -xerrtags is the
// row's name. A new tag is one new row, named as illumos names it.
#pragma once

#include <cstdint>
#include <string_view>

namespace dtrace::compiler {

// clang-format off
#define DTRACE_D_TAGS(X) \
    X(D_ACT_SPEC)             /* a destructive action after speculate() */                                       \
    X(D_ADDROF_BITFIELD)      /* & applied to a bit-field member */                                              \
    X(D_ADDROF_LVAL)          /* & applied to something that is not an lvalue */                                 \
    X(D_ADDROF_VAR)           /* & applied to a dynamic (thread-local, associative) variable */                  \
    X(D_AGG_COMM)             /* an aggregating action after commit() */                                         \
    X(D_AGG_FUNC)             /* an aggregation assigned something that is not an aggregating function */        \
    X(D_AGG_MDIM)             /* an aggregation indexed more than once (@a[1][2]) */                             \
    X(D_AGG_NULL)             /* an aggregation named as a statement on its own, with no effect */               \
    X(D_AGG_REDEF)            /* an aggregation used with two different aggregating functions or key shapes */   \
    X(D_AGG_SCALAR)           /* an aggregating function's value that is not scalar */                           \
    X(D_AGG_SPEC)             /* an aggregating action after speculate() */                                      \
    X(D_ARGS_IDX)             /* args[] indexed outside the probe's arguments */                                 \
    X(D_ARGS_MULTI)           /* args[] in a clause whose probes have different argument types */                \
    X(D_ARGS_NONE)            /* args[] outside a probe clause */                                                \
    X(D_ARGS_TYPE)            /* an args[] element whose type cannot be resolved */                              \
    X(D_ARGS_XLATOR)          /* an args[] element whose translator is missing or does not apply */              \
    X(D_ARR_BADREF)           /* an array indexed with the wrong number or kind of keys */                       \
    X(D_ARR_BOUNDS)           /* a constant index outside a fixed-size array */                                  \
    X(D_ARR_LOCAL)            /* a clause-local (this->) variable used as an associative array */                \
    X(D_CAST_INVAL)           /* a cast between types that do not convert */                                     \
    X(D_CG_EXPR)              /* an expression the code generator cannot lower */                                \
    X(D_CHR_NL)               /* a newline inside a character constant */                                        \
    X(D_CHR_NULL)             /* an empty character constant ('') */                                             \
    X(D_CHR_OFLOW)            /* a character constant longer than an int holds */                                \
    X(D_CLEAR_AGGARG)         /* clear() of something that is not an aggregation */                              \
    X(D_CLEAR_AGGBAD)         /* clear() of an aggregation never defined */                                      \
    X(D_CLEAR_PROTO)          /* clear() with other than one argument */                                         \
    X(D_COMM_COMM)            /* commit() after commit() in one clause */                                        \
    X(D_COMM_DREC)            /* commit() after a data-recording action in one clause */                         \
    X(D_DECL_ARRBIG)          /* an array dimension too large */                                                 \
    X(D_DECL_ARRNULL)         /* an inline array declared without its tuple signature */                         \
    X(D_DECL_ARRSUB)          /* an array dimension that is neither a positive constant nor a tuple signature */ \
    X(D_DECL_BADCLASS)        /* a storage class an inline declaration may not take */                           \
    X(D_DECL_BFCONST)         /* a bit-field size that is not a positive constant */                             \
    X(D_DECL_BFSIZE)          /* a bit-field wider than its type */                                              \
    X(D_DECL_BFTYPE)          /* a bit-field of a type other than an integer */                                  \
    X(D_DECL_CHARATTR)        /* short or long with char */                                                      \
    X(D_DECL_CLASS)           /* more than one storage class in a declaration */                                 \
    X(D_DECL_COMBO)           /* type specifiers that do not combine (int float, ...) */                         \
    X(D_DECL_DYNOBJ)          /* a struct or union member of a dynamic type (string is allowed) */               \
    X(D_DECL_ENCONST)         /* an enumerator value that is not an integer constant */                          \
    X(D_DECL_ENOFLOW)         /* an enumerator value that overflows an int */                                    \
    X(D_DECL_IDENT)           /* an old-style declaration or a missing type */                                   \
    X(D_DECL_IDRED)           /* an identifier declared again with a different kind or type */                   \
    X(D_DECL_INCOMPLETE)      /* an object of an incomplete struct, union or enum type */                        \
    X(D_DECL_LOCASSC)         /* an associative array declared as a clause-local variable */                     \
    X(D_DECL_LONGINT)         /* long or long long with a type other than an integer or double */                \
    X(D_DECL_MNAME)           /* a struct or union member without a name */                                      \
    X(D_DECL_PARMCLASS)       /* a storage class on a function or associative array parameter */                 \
    X(D_DECL_PROTO_FORM)      /* a prototype parameter name given twice */                                       \
    X(D_DECL_PROTO_NAME)      /* a void parameter with a name */                                                 \
    X(D_DECL_PROTO_TYPE)      /* an associative array key of type void */                                        \
    X(D_DECL_PROTO_VARARGS)   /* a prototype or key list with ... */                                       \
    X(D_DECL_PROTO_VOID)      /* void beside other parameters */                                            \
    X(D_DECL_SCOPE)           /* a declaration name with the ` scoping operator */                               \
    X(D_DECL_SIGNINT)         /* signed or unsigned with a type other than an integer */                         \
    X(D_DECL_TYPERED)         /* a type (struct, union, enum, typedef) declared again differently */             \
    X(D_DECL_USELESS)         /* a declaration that declares nothing */                                          \
    X(D_DECL_VOIDATTR)        /* attributes (signed, const ...) on void */                                       \
    X(D_DECL_VOIDOBJ)         /* an object or array of type void */                                              \
    X(D_DEREF_FUNC)           /* * applied to a pointer to a function */                                         \
    X(D_DEREF_NONPTR)         /* * applied to something that is not a pointer */                                 \
    X(D_DEREF_VOID)           /* * applied to a pointer to void */                                               \
    X(D_DIV_ZERO)             /* a constant division or remainder by zero */                                     \
    X(D_DREC_COMM)            /* a data-recording action after commit() */                                       \
    X(D_EMPTY)                /* a program without clauses or declarations (without -x empty) */                 \
    X(D_EXIT_SPEC)            /* exit() after speculate() */                                                     \
    X(D_FREOPEN_INVALID)      /* freopen() of "." (the directory) */                                             \
    X(D_FUNC_IDENT)           /* a call of something that is not a function */                                   \
    X(D_FUNC_IDKIND)          /* a call of a variable or other non-function identifier */                        \
    X(D_FUNC_UNDEF)           /* a call of a function D does not define */                                       \
    X(D_IDENT_AMBIG)          /* an identifier that names more than one kind of thing */                         \
    X(D_IDENT_BADREF)         /* an identifier used in a way its kind does not allow */                          \
    X(D_IDENT_UNDEF)          /* an identifier never declared */                                                 \
    X(D_INT_DIGIT)            /* a digit that does not belong to the constant's base */                          \
    X(D_INT_OFLOW)            /* an integer constant too large for any D integer type */                         \
    X(D_KEY_TYPE)             /* an associative array key of a type keys may not have */                         \
    X(D_LLQUANT_FACTOREVEN)   /* llquantize(): the factor does not divide the steps per magnitude */             \
    X(D_LLQUANT_FACTORMATCH)  /* llquantize(): the factor differs from an earlier use of the aggregation */      \
    X(D_LLQUANT_FACTORNSTEPS) /* llquantize(): the factor exceeds the steps per magnitude */                     \
    X(D_LLQUANT_FACTORSMALL)  /* llquantize(): a factor below two */                                             \
    X(D_LLQUANT_FACTORTYPE)   /* llquantize(): a factor that is not an integer constant */                       \
    X(D_LLQUANT_FACTORVAL)    /* llquantize(): a factor that is not a 16-bit quantity */                         \
    X(D_LLQUANT_HIGHMATCH)    /* llquantize(): the high magnitude differs from an earlier use */                 \
    X(D_LLQUANT_HIGHTYPE)     /* llquantize(): a high magnitude that is not an integer constant */               \
    X(D_LLQUANT_HIGHVAL)      /* llquantize(): a high magnitude that is not a 16-bit quantity */                 \
    X(D_LLQUANT_LOWMATCH)     /* llquantize(): the low magnitude differs from an earlier use */                  \
    X(D_LLQUANT_LOWTYPE)      /* llquantize(): a low magnitude that is not an integer constant */                \
    X(D_LLQUANT_LOWVAL)       /* llquantize(): a low magnitude that is not a 16-bit quantity */                  \
    X(D_LLQUANT_MAGRANGE)     /* llquantize(): a high magnitude not above the low one */                         \
    X(D_LLQUANT_MAGTOOBIG)    /* llquantize(): factor ** high magnitude overflows 64 bits */                     \
    X(D_LLQUANT_NSTEPMATCH)   /* llquantize(): the steps per magnitude differ from an earlier use */             \
    X(D_LLQUANT_NSTEPTYPE)    /* llquantize(): steps per magnitude that are not an integer constant */           \
    X(D_LLQUANT_NSTEPVAL)     /* llquantize(): steps per magnitude that are not a 16-bit quantity */             \
    X(D_LQUANT_BASETYPE)      /* lquantize(): a base that is not an integer constant */                          \
    X(D_LQUANT_BASEVAL)       /* lquantize(): a base that is not a 32-bit quantity */                            \
    X(D_LQUANT_LIMTYPE)       /* lquantize(): a limit that is not an integer constant */                         \
    X(D_LQUANT_LIMVAL)        /* lquantize(): a limit that is not a 32-bit quantity */                           \
    X(D_LQUANT_MATCHBASE)     /* lquantize(): the base differs from an earlier use of the aggregation */         \
    X(D_LQUANT_MATCHLIM)      /* lquantize(): the limit differs from an earlier use */                           \
    X(D_LQUANT_MATCHSTEP)     /* lquantize(): the step differs from an earlier use */                            \
    X(D_LQUANT_MISMATCH)      /* lquantize(): a base not below the limit */                                      \
    X(D_LQUANT_STEPLARGE)     /* lquantize(): a step larger than the range */                                    \
    X(D_LQUANT_STEPSMALL)     /* lquantize(): a step that makes too many levels */                               \
    X(D_LQUANT_STEPTYPE)      /* lquantize(): a step that is not a positive integer constant */                  \
    X(D_LQUANT_STEPVAL)       /* lquantize(): a step that is not a 16-bit quantity */                            \
    X(D_MACRO_OFLOW)          /* a macro argument ($1) whose value overflows its use */                          \
    X(D_MACRO_UNDEF)          /* a macro argument ($3) beyond the ones given */                                  \
    X(D_MACRO_UNUSED)         /* an operand no $n of the program refers to (without -x defaultargs) */           \
    X(D_NOREG)                /* an expression that needs more registers than DIF has */                         \
    X(D_NORMALIZE_AGGARG)     /* normalize() or denormalize() of something that is not an aggregation */         \
    X(D_NORMALIZE_AGGBAD)     /* normalize() or denormalize() of an aggregation never defined */                 \
    X(D_NORMALIZE_PROTO)      /* normalize() or denormalize() with the wrong number of arguments */              \
    X(D_NORMALIZE_SCALAR)     /* normalize() by a value that is not scalar */                                    \
    X(D_OFFSETOF_BITFIELD)    /* offsetof() of a bit-field member */                                             \
    X(D_OFFSETOF_TYPE)        /* offsetof() of a type that is not a struct or union */                           \
    X(D_OP_ACT)               /* an action as an operand of the comma operator */                                \
    X(D_OP_ARITH)             /* an arithmetic operator on an operand that is not arithmetic */                  \
    X(D_OP_ARRFUN)            /* an assignment to an array or a function */                                      \
    X(D_OP_DYN)               /* a dynamic-type operand where a value is needed */                               \
    X(D_OP_INCOMPAT)          /* operands of types that do not combine */                                        \
    X(D_OP_INCOMPLETE)        /* an operator on an incomplete type */                                            \
    X(D_OP_INT)               /* an integer-only operator (% << & ...) on another type */                        \
    X(D_OP_LVAL)              /* an assignment or ++/-- of something that is not an lvalue */                    \
    X(D_OP_PTR)               /* -> applied to something that is not a pointer */                                \
    X(D_OP_SCALAR)            /* an operator that needs a scalar operand given another */                        \
    X(D_OP_SOU)               /* . or -> applied to something that is not a struct or union */                   \
    X(D_OP_VFPTR)             /* arithmetic on a pointer to void or to a function */                             \
    X(D_OP_WRITE)             /* an assignment to a read-only variable or member */                              \
    X(D_PDESC_INVAL)          /* a probe description that is not well formed */                                  \
    X(D_PDESC_ZERO)           /* a probe description that matches no probe */                                    \
    X(D_PRAGCTL_INVAL)        /* a # control line that is not a known directive */                               \
    X(D_PRAGERR)              /* #pragma D error or #error: the program's own error */                           \
    X(D_PRAGMA_DEPEND)        /* a #pragma D depends_on in a main program that names a library */                \
    X(D_PRAGMA_INVAL)         /* a #pragma D of a kind D does not know */                                        \
    X(D_PRAGMA_MALFORM)       /* a #pragma or #line without the arguments it needs */                            \
    X(D_PRAGMA_OPTSET)        /* #pragma D option that fails to set its option */                                \
    X(D_PRAGMA_UNUSED)        /* a #pragma D attributes or binding naming an identifier the program never defines */ \
    X(D_PRED_SCALAR)          /* a predicate whose value is not scalar */                                        \
    X(D_PRINTA_AGGARG)        /* printa() given something that is not an aggregation */                          \
    X(D_PRINTA_AGGBAD)        /* printa() of an aggregation never defined */                                     \
    X(D_PRINTA_AGGKEY)        /* printa() of aggregations whose keys differ */                                   \
    X(D_PRINTA_AGGPROTO)      /* printa() of aggregations whose key types differ */                              \
    X(D_PRINTA_PROTO)         /* printa() with too few arguments */                                              \
    X(D_PRINTF_AGG_CONV)      /* a %@ conversion outside printa() */                                             \
    X(D_PRINTF_ARG_EXTRA)     /* printf() with more arguments than conversions */                                \
    X(D_PRINTF_ARG_FMT)       /* printf() whose format is not a string constant */                               \
    X(D_PRINTF_ARG_PROTO)     /* printf() with fewer arguments than conversions */                               \
    X(D_PRINTF_ARG_TYPE)      /* a printf() argument of a type its conversion does not take */                   \
    X(D_PRINTF_DYN_PROTO)     /* a * width or precision without its argument */                                  \
    X(D_PRINTF_DYN_TYPE)      /* a * width or precision argument that is not an integer */                       \
    X(D_PRINTF_FMT_EMPTY)     /* printf() of an empty format */                                                  \
    X(D_PRINT_AGG)            /* print() of an aggregation */                                                    \
    X(D_PRINT_VOID)           /* print() of a void expression */                                                 \
    X(D_PROTO_ARG)            /* a function argument of a type its prototype does not take */                    \
    X(D_PROTO_LEN)            /* a function called with the wrong number of arguments */                         \
    X(D_PROV_BADNAME)         /* a provider probe name with the ` scoping operator */                            \
    X(D_PROV_INCOMPAT)        /* a provider redeclared with a different interface */                             \
    X(D_PROV_PRARGLEN)        /* a provider probe with more than 255 parameters */                               \
    X(D_PROV_PRDUP)           /* a probe declared twice in one provider definition */                            \
    X(D_REGS_IDX)             /* uregs[] indexed outside the registers */                                        \
    X(D_SIZEOF_BITFIELD)      /* sizeof of a bit-field member */                                                 \
    X(D_SIZEOF_TYPE)          /* sizeof of something of unknown size */                                          \
    X(D_SPEC_COMM)            /* speculate() after commit() */                                                   \
    X(D_SPEC_DREC)            /* speculate() after a data-recording action */                                    \
    X(D_SPEC_SPEC)            /* speculate() twice in one clause */                                              \
    X(D_STACK_PROTO)          /* stack() with more than one argument */                                          \
    X(D_STACK_SIZE)           /* stack() of a frame count that is not a positive constant */                     \
    X(D_STRINGOF_TYPE)        /* stringof of a type that does not convert to a string */                         \
    X(D_STR_NL)               /* a newline inside a string literal */                                            \
    X(D_SYNTAX)               /* a syntax error */                                                               \
    X(D_TRACEMEM_ADDR)        /* tracemem() of something that is not an address */                               \
    X(D_TRACEMEM_ARGS)        /* tracemem() with more than three arguments */                                    \
    X(D_TRACEMEM_DYNSIZE)     /* tracemem() whose dynamic size is not scalar */                                  \
    X(D_TRACEMEM_SIZE)        /* tracemem() of a size that is not a positive constant */                         \
    X(D_TRACE_AGG)            /* trace() of an aggregation */                                                    \
    X(D_TRACE_DYN)            /* trace() of a dynamic expression (a whole array, a translated struct) */     \
    X(D_TRACE_VOID)           /* trace() of a void expression */                                                 \
    X(D_TRUNC_AGGARG)         /* trunc() of something that is not an aggregation */                              \
    X(D_TRUNC_AGGBAD)         /* trunc() of an aggregation never defined */                                      \
    X(D_TRUNC_PROTO)          /* trunc() with other than one or two arguments */                                 \
    X(D_TRUNC_SCALAR)         /* trunc() to a count that is not scalar */                                        \
    X(D_TYPE_ERR)             /* a type name that does not resolve */                                            \
    X(D_TYPE_MEMBER)          /* a member a struct or union does not have */                                     \
    X(D_UNKNOWN)              /* an internal error: a node the compiler does not know */                         \
    X(D_USTACK_FRAMES)        /* ustack() of a frame count that is not a positive constant */                    \
    X(D_USTACK_PROTO)         /* ustack() with more than two arguments */                                        \
    X(D_USTACK_STRSIZE)       /* ustack() of a string size that is not a positive constant */                    \
    X(D_VAR_UNDEF)            /* a variable read before any declaration or assignment */                         \
    X(D_XLATE_INCOMPAT)       /* a translator member whose value does not convert to the member's type */        \
    X(D_XLATE_MEMB)           /* a translator member the output type does not have */                            \
    X(D_XLATE_NOCONV)         /* xlate of a member the translator does not define */                             \
    X(D_XLATE_NONE)           /* xlate from a type no translator takes */                                        \
    X(D_XLATE_REDECL)         /* a second translator for the same input and output types */                      \
    X(D_XLATE_SOU)            /* a translator whose output type is not a complete struct or union */
// clang-format on

enum class Tag : uint16_t {
    None, // an error DTrace reports without a tag
#define DTRACE_TAG_ENUMERATOR(name) name,
    DTRACE_D_TAGS(DTRACE_TAG_ENUMERATOR)
#undef DTRACE_TAG_ENUMERATOR
};

// "D_SYNTAX" for Tag::D_SYNTAX; empty for Tag::None.
std::string_view tag_name(Tag tag);

} // namespace dtrace::compiler
