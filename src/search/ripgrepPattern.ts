// A JavaScript regular expression as a ripgrep (Rust) one that matches at least every line it
// does. A search asks ripgrep for the files holding such a line, then matches the pattern itself
// in those files alone; so the translation may match more, never less. What it does not follow
// it widens: a lookaround, a boundary or an anchor matches anywhere (it is dropped); a class it
// does not copy as it is, a wildcard or a negated class escape matches any character (one or
// more bytes, valid UTF-8 or not: rt reads a byte that is not UTF-8 as U+FFFD, which they match);
// an escape it does not know matches any text at all. Literal text, \d, \w, \s, simple ASCII
// classes, groups, alternatives and quantifiers are copied.

export interface RipgrepPattern {
  /** The pattern for ripgrep (Rust's regex dialect, Unicode on). */
  readonly regex: string;
  /**
   * Literal texts every match holds one of (in any case with -i), or none when that tells
   * nothing: e.g. ["State"] for use[A-Z]?State, ["foo", "barbaz"] for foo|barbaz. A search
   * without ripgrep asks git grep for the lines holding one (gitGrep.ts).
   */
  readonly literals: readonly string[];
  /** The fewest bytes of those texts: how far they narrow the files searched (0: a match may be almost anywhere). */
  readonly strength: number;
  /**
   * Every such set of texts: a match holds one text of each (e.g. ["use"], ["tate"] for
   * use[A-Z]tate); `literals` is the strongest of them.
   */
  readonly required: ReadonlyArray<readonly string[]>;
}

/** A quantifier: ? * + or a count, perhaps lazy (sticky: matched where the atom ends). */
const QUANTIFIER = /(?:([?*+])|\{(\d+)(,(\d*))?\})\??/y;
/** The largest count copied into a pattern for ripgrep. */
const MAX_COUNT = 32;
/** Groups within groups, at most. */
const MAX_NESTING = 64;
/** Characters with a meaning in a ripgrep pattern, escaped to stand for themselves. */
const RUST_META = /[\\.+*?()|[\]{}^$#&\-~]/g;

/** How a dialect writes what the translation copies. */
interface Dialect {
  /** Any one character, as bytes (bytes that are not UTF-8 too). */
  readonly some: string;
  /** Any text at all, for an atom not followed. */
  readonly any: string;
  /** Literal text (ASCII only with -i), to stand for itself (with -i, in any case). */
  literal(text: string, ignoreCase: boolean): string;
  /** JavaScript's \w, and its \s (which has U+FEFF, no white space to Unicode). */
  word(ignoreCase: boolean): string;
  readonly space: string;
  /** \s within a class; undefined when a class holding it is not copied. */
  readonly classSpace: string | undefined;
  /** The characters escaped within a class, to stand for themselves. */
  readonly classMeta: RegExp;
  /**
   * A term repeated min to max times, when the dialect writes that otherwise than as a group (undefined: as a group).
   */
  readonly repeated?: (term: string, min: number, max: number) => string | undefined;
}

/** ripgrep's (Rust's regex crate, Unicode on: \w and \s are Unicode's, -i folds as JavaScript's u flag does). */
const RUST: Dialect = {
  some: '(?-u:.)+',
  any: '(?-u:.)*',
  literal: (text) => text.replace(RUST_META, '\\$&'),
  word: () => '\\w',
  space: '[\\s\\x{FEFF}]',
  classSpace: '\\s\\x{FEFF}',
  classMeta: RUST_META,
};

/** A PCRE term that is one character as a run of bytes of one class: the class, and the most bytes. */
const BYTE_UNIT = /^(\.|\[\\[sw]\\x80-\\xFF\])\{1,(\d)\}$/;
/** A PCRE term that is one byte of a class: \w, or a class of ASCII characters (copied without -i). */
const ONE_BYTE = /^(?:\\w|\[(?:[^\]\\]|\\.)*\])$/;

/**
 * git grep -P's in the C locale: PCRE on bytes, ASCII alone for \w, \s and case. Other
 * characters are written as their UTF-8 bytes, JavaScript's other white space as theirs, and
 * with -i the letters s and k (and \w) take ſ and the Kelvin sign too, which JavaScript folds
 * into them.
 */
const PCRE: Dialect = {
  // (?s) leads the pattern (pcrePattern): "." is any byte. One character is 1 to 4 bytes (U+FFFD,
  // for bytes that are not UTF-8, is 1 to 3 of them); repeated, a single repeat of bytes (PCRE
  // keeps no stack frame for each, and so does not run past the JIT's stack on a long line,
  // where git would stop).
  some: '.{1,4}',
  any: '.*',
  repeated: (term, min, max) => {
    const unit = BYTE_UNIT.exec(term) ?? (ONE_BYTE.test(term) ? [term, term, '1'] : null);
    return unit ? `${unit[1]}{${min},${max === Infinity ? '' : max * Number(unit[2])}}` : undefined;
  },
  literal: (text, ignoreCase) =>
    [...text]
      .map((c) => {
        if (ignoreCase && /[sk]/i.test(c))
          return c.toLowerCase() === 's' ? '(?:s|\\xC5\\xBF)' : '(?:k|\\xE2\\x84\\xAA)';
        if (/[A-Za-z0-9]/.test(c)) return c;
        if (c < '\x80') return `\\${c}`;
        return [...Buffer.from(c, 'utf8')].map((b) => `\\x${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
      })
      .join(''),
  // Beyond ASCII, JavaScript's white space (U+00A0, U+1680, U+2000-U+200A, U+2028, U+2029,
  // U+202F, U+205F, U+3000, U+FEFF) and, with -i, its word characters (ſ, the Kelvin sign) are
  // 2 or 3 bytes of 0x80 and above: any such bytes stand for them, in a single repeat.
  word: (ignoreCase) => (ignoreCase ? '[\\w\\x80-\\xFF]{1,3}' : '\\w'),
  space: '[\\s\\x80-\\xFF]{1,3}',
  classSpace: undefined,
  // Every punctuation character: [:a:] and [=a=] would be POSIX syntax to PCRE (refused outside a class).
  classMeta: /[^A-Za-z0-9]/g,
};

interface Part {
  readonly regex: string;
  readonly literals: readonly string[];
  readonly strength: number;
  readonly required: ReadonlyArray<readonly string[]>;
}

/** A term: its pattern, its literals, and for one literal character that character (runs of them are joined). */
interface Term extends Part {
  readonly literal?: string;
}

/** A part that holds no literal text for sure. */
const noLiteral = (regex: string): Term => withRequired(regex, []);

/** The fewest bytes of a set of texts (0 for none). */
function strengthOf(literals: readonly string[]): number {
  return literals.length ? Math.min(...literals.map((l) => Buffer.byteLength(l))) : 0;
}

/**
 * A part with the sets of texts its matches hold one of each: the strongest set (the first of equals) is its literals.
 */
function withRequired(regex: string, required: ReadonlyArray<readonly string[]>): Part {
  let literals: readonly string[] = [];
  let strength = 0;
  for (const set of required) {
    const s = strengthOf(set);
    if (s > strength) [literals, strength] = [set, s];
  }
  return { regex, literals, strength, required: required.filter((set) => set.length > 0) };
}

/**
 * `pattern` for ripgrep (with --ignore-case when `ignoreCase`, the -i of rt's search), or
 * undefined when its syntax is not followed at all (unbalanced groups: JavaScript refuses those).
 */
export function ripgrepPattern(pattern: string, ignoreCase: boolean): RipgrepPattern | undefined {
  return translate(pattern, ignoreCase, RUST);
}

/**
 * `pattern` for `git grep -P` run in the C locale (with --ignore-case when `ignoreCase`), to
 * match at least every line it does as ripgrepPattern's translation does; undefined when not
 * followed.
 */
export function pcrePattern(pattern: string, ignoreCase: boolean): RipgrepPattern | undefined {
  const translated = translate(pattern, ignoreCase, PCRE);
  // Two stretches of any text apart (.*x.*oops, from escapes not followed) make PCRE backtrack
  // in the cube of a line's length, just within its match limit: 38 s on 20,000 long lines.
  // The literal texts are asked for instead.
  if (!translated || translated.regex.split(PCRE.any).length > 2) return undefined;
  return { ...translated, regex: `(?s)${translated.regex}` };
}

function translate(pattern: string, ignoreCase: boolean, dialect: Dialect): RipgrepPattern | undefined {
  const SOME = dialect.some;
  const ANY = dialect.any;
  let i = 0;
  let nesting = 0;
  const peek = () => pattern[i];

  function disjunction(): Part | undefined {
    const alternatives: Part[] = [];
    for (;;) {
      const alternative = sequence();
      if (!alternative) return undefined;
      alternatives.push(alternative);
      if (peek() !== '|') break;
      i++;
    }
    // A match holds a literal of the alternative it matches; if one tells nothing, none does.
    const regex = alternatives.map((a) => a.regex).join('|');
    if (alternatives.length === 1) return alternatives[0];
    return alternatives.some((a) => a.strength === 0)
      ? withRequired(regex, [])
      : withRequired(regex, [alternatives.flatMap((a) => a.literals)]);
  }

  function sequence(): Part | undefined {
    let regex = '';
    // The sets of texts found so far, and the run of literal characters just read (a set of its own once it ends).
    const required: Array<readonly string[]> = [];
    let run = '';
    const endRun = () => {
      if (run) required.push([run]);
      run = '';
    };
    // Any text twice in a row is any text once (PCRE would backtrack through each, in turn).
    const append = (piece: string) => {
      if (piece === ANY && regex.endsWith(ANY)) return;
      regex += piece;
    };
    while (i < pattern.length && peek() !== '|' && peek() !== ')') {
      const t = term();
      if (!t) return undefined;
      const q = quantifier();
      if (q === undefined) return undefined;
      if (q.text === '') {
        append(t.regex);
        if (t.literal !== undefined) {
          run += t.literal;
        } else {
          endRun();
          required.push(...t.required);
        }
        continue;
      }
      // A quantified term: its text is in every match only when it must occur at least once,
      // and what follows may not touch it.
      // Any text repeated is any text; a character of bytes repeated, a longer run of them.
      if (t.regex === ANY) append(ANY);
      else if (t.regex !== '') append(dialect.repeated?.(t.regex, q.min, q.max) ?? `(?:${t.regex})${q.text}`);
      if (q.min > 0 && t.literal !== undefined) {
        required.push([run + t.literal]);
        run = '';
      } else {
        endRun();
        if (q.min > 0) required.push(...t.required);
      }
    }
    endRun();
    return withRequired(regex, required);
  }

  /**
   * The quantifier at i (consumed): its text for ripgrep ("" for none; laziness dropped, it changes no match) and its
   * minimum.
   */
  function quantifier(): { text: string; min: number; max: number } | undefined {
    QUANTIFIER.lastIndex = i;
    const m = QUANTIFIER.exec(pattern);
    if (!m) return ['?', '*', '+'].includes(peek() ?? '') ? undefined : { text: '', min: 0, max: 0 };
    i += m[0].length;
    if (m[1]) return { text: m[1], min: m[1] === '+' ? 1 : 0, max: m[1] === '?' ? 1 : Infinity };
    const min = Number(m[2]);
    const max = m[3] === undefined ? min : m[4] === '' ? Infinity : Number(m[4]);
    // Large counts are not copied (ripgrep refuses counts past 2^32 and patterns past its size
    // limit): at least a few, any number more, matches every text they match.
    if (max > MAX_COUNT)
      return { text: `{${Math.min(min, MAX_COUNT)},}`, min: Math.min(min, MAX_COUNT), max: Infinity };
    return { text: `{${min}${m[3] === undefined ? '' : `,${m[4]}`}}`, min, max };
  }

  function literal(text: string): Term {
    if (ignoreCase && /[^\x00-\x7f]/.test(text)) return noLiteral(SOME); // case folding beyond ASCII is rt's own
    if (text === '\ufffd') return noLiteral(SOME); // what a byte that is not UTF-8 reads as
    return { ...withRequired(dialect.literal(text, ignoreCase), [[text]]), literal: text };
  }

  function term(): Term | undefined {
    const c = pattern[i]!;
    if (c === '^' || c === '$') {
      i++;
      return noLiteral('');
    }
    if (c === '.') {
      i++;
      return noLiteral(SOME);
    }
    if (c === '\\') return escape();
    if (c === '[') return characterClass();
    if (c === '(') return group();
    if (c === '*' || c === '+' || c === '?') return undefined;
    // One character (a surrogate pair is one); "{", "}" and "]" that are no syntax stand for themselves.
    const pair = /^[\ud800-\udbff][\udc00-\udfff]/.test(pattern.slice(i, i + 2));
    const text = pattern.slice(i, i + (pair ? 2 : 1));
    i += text.length;
    if (/^[\ud800-\udfff]$/.test(text)) return noLiteral(ANY);
    return literal(text);
  }

  function escape(): Term | undefined {
    const e = pattern[i + 1];
    if (e === undefined) return undefined;
    i += 2;
    switch (e) {
      case 'b':
      case 'B':
        return noLiteral('');
      case 'd':
        return noLiteral('[0-9]');
      case 'w':
        return noLiteral(dialect.word(ignoreCase));
      case 's':
        return noLiteral(dialect.space);
      case 'D':
      case 'W':
      case 'S':
        return noLiteral(SOME);
      case 't':
      case 'r':
      case 'f':
      case 'v':
        return noLiteral(`\\${e}`);
      case 'n':
        // Never in a line (ripgrep refuses it in a pattern): anything will do.
        return noLiteral(SOME);
    }
    if (/[A-Za-z0-9]/.test(e)) {
      // A code point, a property, a control character, a reference or an octal code: what
      // follows the letter belongs to it; the escape may match any text.
      const rest = pattern.slice(i);
      const arg = /^[0-9]/.test(e)
        ? /^[0-9]*/.exec(rest)
        : e === 'x'
          ? /^[0-9A-Fa-f]{0,2}/.exec(rest)
          : e === 'u'
            ? /^(?:\{[0-9A-Fa-f]*\}|[0-9A-Fa-f]{0,4})/.exec(rest)
            : e === 'p' || e === 'P'
              ? /^(?:\{[^}]*\})?/.exec(rest)
              : e === 'k'
                ? /^(?:<[^>]*>)?/.exec(rest)
                : e === 'c'
                  ? /^[A-Za-z]?/.exec(rest)
                  : null;
      // Without the u flag (and named groups) \p and \k are the bare letters, and what follows
      // them is pattern as usual: taken as one escape only when it holds no syntax that would
      // change the rest (an alternative, a group, a class, an escape).
      if (arg && /[|()[\]\\]/.test(arg[0])) return undefined;
      i += arg ? arg[0].length : 0;
      return noLiteral(ANY);
    }
    // Escaped punctuation (or any other character) stands for itself.
    const pair = /^[\ud800-\udbff][\udc00-\udfff]/.test(pattern.slice(i - 1, i + 1));
    if (pair) i++;
    return literal(pattern.slice(i - (pair ? 2 : 1), i));
  }

  function characterClass(): Term | undefined {
    // In JavaScript a "]" right after "[" or "[^" ends the class ([] matches nothing, [^] anything).
    let j = i + 1;
    if (pattern[j] === '^') j++;
    for (; j < pattern.length && pattern[j] !== ']'; j++) if (pattern[j] === '\\') j++;
    if (j >= pattern.length) return undefined;
    const body = pattern.slice(i + 1, j);
    i = j + 1;
    // A class of ASCII characters, ranges and the escapes \d \w \s means the same to ripgrep
    // (case folding aside); any other is one character, whichever.
    const copied = ignoreCase ? undefined : plainClass(body, dialect);
    return noLiteral(copied === undefined ? SOME : `[${copied}]`);
  }

  function group(): Term | undefined {
    const lookaround = /^\(\?<?[=!]/.exec(pattern.slice(i, i + 4));
    const head = lookaround ? lookaround[0] : (/^\(\?(?::|<[A-Za-z_$][\w$]*>)/.exec(pattern.slice(i))?.[0] ?? '(');
    if (head === '(' && pattern[i + 1] === '?') return undefined; // (?i) and the like: JavaScript refuses them
    // Groups nested deeper than any real pattern's are not followed (nor would ripgrep take them).
    if (++nesting > MAX_NESTING) return undefined;
    i += head.length;
    const inner = disjunction();
    nesting--;
    if (!inner || peek() !== ')') return undefined;
    i++;
    // A lookaround matches no text: dropped, as if it always held.
    if (lookaround) return noLiteral('');
    // A group of one character (or of any text) needs no group: repeated, it is a single repeat.
    const bare = inner.regex === ANY || dialect.repeated?.(inner.regex, 1, 1) !== undefined;
    return { ...inner, regex: bare ? inner.regex : `(?:${inner.regex})` };
  }

  const whole = disjunction();
  if (!whole || i < pattern.length) return undefined;
  return { regex: whole.regex, literals: whole.literals, strength: whole.strength, required: whole.required };
}

/**
 * A class body (between [ and ]) for ripgrep, when it holds only ASCII characters (plain or
 * escaped punctuation), ranges of them and \d \w \s; else undefined. A negated or empty class
 * is undefined too.
 */
function plainClass(body: string, dialect: Dialect): string | undefined {
  const space = dialect.classSpace;
  if (body === '' || body.startsWith('^')) return undefined;
  const out: string[] = [];
  // One character of the class at `at`: its ripgrep text, and where it ends; undefined when not plain.
  const char = (at: number): { text: string; end: number } | undefined => {
    const c = body[at];
    if (c === undefined || c < ' ' || c > '~') return undefined;
    if (c !== '\\') return { text: c.replace(dialect.classMeta, '\\$&'), end: at + 1 };
    const e = body[at + 1];
    if (e === undefined || e < ' ' || e > '~' || /[A-Za-z0-9]/.test(e)) return undefined;
    return { text: e.replace(dialect.classMeta, '\\$&'), end: at + 2 };
  };
  for (let at = 0; at < body.length; ) {
    const escape = /^\\([dws])/.exec(body.slice(at, at + 2));
    if (escape) {
      if (body[at + 2] === '-' && at + 3 < body.length) return undefined; // \d-x: the dialects disagree
      if (escape[1] === 's' && space === undefined) return undefined;
      out.push(escape[1] === 'd' ? '0-9' : escape[1] === 'w' ? '\\w' : space!);
      at += 2;
      continue;
    }
    const from = char(at);
    if (!from) return undefined;
    if (body[from.end] === '-' && from.end + 1 < body.length) {
      const to = char(from.end + 1);
      if (!to || /^\\[dws]/.test(body.slice(from.end + 1, from.end + 3))) return undefined;
      out.push(`${from.text}-${to.text}`);
      at = to.end;
    } else {
      out.push(from.text);
      at = from.end;
    }
  }
  return out.join('');
}

/**
 * Sets of literal texts (a pattern's `required`, or [[string]] for grep -F) as `git grep -F` is
 * to look for them, so that every line rt's matcher finds holds one text of each set. Each text
 * is cut into runs: with -i, of ASCII characters other than s and k (git folds ASCII case only,
 * and JavaScript also folds ſ into s and the Kelvin sign into k); and at each "\E" (git built
 * with PCRE quotes a text holding a character special to it as \Q…\E, which a \E inside ends:
 * the runs are "…\" and "E…"). Each run of a single text is required, and of several texts the
 * longest run of each (a set is dropped when a text has none). Sets of one byte are dropped
 * (they narrow nothing); the strongest come first.
 */
export function byteRequired(required: ReadonlyArray<readonly string[]>, ignoreCase: boolean): string[][] {
  const runs = (text: string) =>
    (ignoreCase ? (text.match(/[\x00-\x7f]+/g) ?? []).flatMap((r) => r.split(/[sk]/i)) : [text])
      .flatMap((r) => r.replace(/\\E/g, '\\\0E').split('\0'))
      .filter((r) => r !== '');
  const sets = required.flatMap((set) => {
    if (set.length === 1) return runs(set[0]!).map((r) => [r]);
    const longest = set.map((text) => runs(text).reduce((a, b) => (b.length > a.length ? b : a), ''));
    return longest.includes('') ? [] : [longest];
  });
  return sets.filter((set) => strengthOf(set) > 1).sort((a, b) => strengthOf(b) - strengthOf(a));
}
