// The words each language reserves: no symbol may be renamed to one (it would not parse, or
// would mean the keyword). Soft keywords that name things as well (Python's match, case, type;
// Java's var, record) are not among them. Pure.

const words = (s: string) => new Set(s.split(/\s+/).filter(Boolean));

/** ECMAScript's reserved words, strict mode's, and the names a module or strict code may not bind. */
const JS = `
  break case catch class const continue debugger default delete do else enum export extends false finally for
  function if import in instanceof new null return super switch this throw true try typeof var void while with
  implements interface let package private protected public static yield await eval arguments`;

const C = `auto break case char const continue default do double else enum extern float for goto if inline int
  long register restrict return short signed sizeof static struct switch typedef union unsigned void volatile while
  _Bool _Complex _Imaginary _Alignas _Alignof _Atomic _Generic _Noreturn _Static_assert _Thread_local bool true
  false nullptr alignas alignof constexpr static_assert thread_local typeof`;

/** The sets, made when a name is first checked: every run loads this file, few check a name. */
let reserved: Readonly<Record<string, ReadonlySet<string>>> | undefined;

const makeReserved = (js = words(JS)): Readonly<Record<string, ReadonlySet<string>>> => ({
  javascript: js,
  typescript: js,
  tsx: js,
  python: words(`False None True and as assert async await break class continue def del elif else except finally
    for from global if import in is lambda nonlocal not or pass raise return try while with yield`),
  go: words(`break case chan const continue default defer else fallthrough for func go goto if import interface map
    package range return select struct switch type var`),
  rust: words(`as break const continue crate else enum extern false fn for if impl in let loop match mod move mut
    pub ref return self Self static struct super trait true type unsafe use where while async await dyn abstract
    become box do final macro override priv typeof unsized virtual yield try gen`),
  java: words(`abstract assert boolean break byte case catch char class const continue default do double else enum
    extends final finally float for goto if implements import instanceof int interface long native new package
    private protected public return short static strictfp super switch synchronized this throw throws transient try
    void volatile while true false null _`),
  csharp: words(`abstract as base bool break byte case catch char checked class const continue decimal default
    delegate do double else enum event explicit extern false finally fixed float for foreach goto if implicit in int
    interface internal is lock long namespace new null object operator out override params private protected public
    readonly ref return sbyte sealed short sizeof stackalloc static string struct switch this throw true try typeof
    uint ulong unchecked unsafe ushort using virtual void volatile while`),
  ruby: words(`__ENCODING__ __LINE__ __FILE__ BEGIN END alias and begin break case class def defined? do else elsif
    end ensure false for if in module next nil not or redo rescue retry return self super then true undef unless
    until when while yield`),
  php: words(`abstract and array as break callable case catch class clone const continue declare default do echo
    else elseif empty enddeclare endfor endforeach endif endswitch endwhile eval exit extends final finally fn for
    foreach function global goto if implements include include_once instanceof insteadof interface isset list match
    namespace new or print private protected public readonly require require_once return static switch throw trait
    try unset use var while xor yield die`),
  c: words(C),
  cpp: words(`${C} and and_eq asm bitand bitor catch char8_t char16_t char32_t class compl concept consteval
    constinit const_cast co_await co_return co_yield decltype delete dynamic_cast explicit export friend mutable
    namespace new noexcept not not_eq operator or or_eq private protected public reinterpret_cast requires
    static_cast template this throw try typeid typename using virtual wchar_t xor xor_eq`),
  bash: words('if then else elif fi case esac for select while until do done in function time coproc'),
});

/** Whether `name` is a word `language` reserves (PHP's keywords in any case). */
export function isReservedWord(language: string, name: string): boolean {
  reserved ??= makeReserved();
  return reserved[language]?.has(language === 'php' ? name.toLowerCase() : name) === true;
}
