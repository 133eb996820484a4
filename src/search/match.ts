// Finding the lines of a file that match a pattern. The dialect is JavaScript's RegExp (with the
// u flag when the pattern allows it); -F takes the pattern literally. A match never spans lines:
// each line is matched on its content alone (no line ending, no BOM), as ripgrep does, and "."
// matches any character of it (a \r that ends no line, U+2028 and U+2029 too, as in grep and
// ripgrep, where JavaScript's own "." would not).

import { RtError } from '../model/errors.js';
import { lineContentRange } from '../model/lineScan.js';
import { dotWithinLines } from './patternText.js';
import type { ByteRange, Captured } from '../model/replacement.js';
import { byteOffsets } from '../model/utf8Offsets.js';

export interface MatchOptions {
  readonly fixed: boolean;
  readonly ignoreCase: boolean;
  readonly word: boolean;
}

/** A match in a line's content, as a byte range [start, end). */
export type MatchRange = readonly [number, number];

export interface LineMatcher {
  /** 0-based numbers of the lines of `bytes` (a whole file) that match, ascending. */
  matchingLines(bytes: Buffer, bomLength: number, limit: number): number[];
  /**
   * The matches in one line's content (no line ending, no BOM) that are not empty, leftmost
   * first and none overlapping, at most `limit`: what -o prints and colour marks.
   */
  matchesIn(content: Buffer, limit?: number): MatchRange[];
  /**
   * Whether matching takes time in proportion to the bytes matched (a literal string, or lines
   * known beforehand): a search with it needs no bound on its time (see matchInTime). A regular
   * expression may backtrack for exponential time, and has none.
   */
  readonly linear?: boolean;
  /** Whether every pattern is a literal string (-F): what a search too slow is told to do then differs. */
  readonly literal?: boolean;
  /** For a literal matched as bytes: the literal, whose lines literalScan.ts can find. */
  readonly needle?: Buffer;
}

/** Whether one line's content (no line ending, no BOM) matches. */
export function matchesLine(matcher: LineMatcher, content: Buffer): boolean {
  // (A literal is in the content or not: a line of megabytes is not copied to tell.)
  if (matcher.needle?.length) return content.includes(matcher.needle);
  // Ended by \r\n, which the matchers take off whole: a content ending in \r keeps it (a bare
  // \n would make that \r part of the line's ending).
  return matcher.matchingLines(Buffer.concat([content, CRLF]), 0, 1).length === 1;
}

const CRLF = Buffer.from('\r\n');

/**
 * Which of the lines `candidates` (0-based, ascending) of `bytes` (a whole file) match: the
 * answer matchingLines gives, for a file of which only these lines may match (those another
 * search found); only they are read and matched.
 */
export function matchingAmong(
  matcher: LineMatcher,
  bytes: Buffer,
  bomLength: number,
  candidates: readonly number[],
): number[] {
  const out: number[] = [];
  let line = 0;
  let start: number = bomLength;
  for (const wanted of candidates) {
    for (; line < wanted; line++) {
      const nl = bytes.indexOf(0x0a, start);
      if (nl === -1) return out; // the file has fewer lines
      start = nl + 1;
    }
    if (start >= bytes.length) return out; // past the last line
    const { contentEnd } = lineContentRange(bytes, start);
    if (matchesLine(matcher, bytes.subarray(start, contentEnd))) out.push(wanted);
  }
  return out;
}

/** Word characters for -w, as ripgrep's: letters, digits (of any script) and underscore. */
const WORD_BEFORE = '(?<![\\p{L}\\p{N}_])';
const WORD_AFTER = '(?![\\p{L}\\p{N}_])';
const ASCII_WORD_BEFORE = '(?<![A-Za-z0-9_])';
const ASCII_WORD_AFTER = '(?![A-Za-z0-9_])';

/** `written`: the pattern as the user wrote it, which refusals quote (`pattern` may be rewritten: POSIX classes). */
export function compileMatcher(pattern: string, options: MatchOptions, written = pattern): LineMatcher {
  if (pattern.includes('\n'))
    throw new RtError('usage', 'the pattern holds a newline, and matches never span lines', [
      'search for one line at a time',
    ]);
  if (options.fixed && !options.ignoreCase && !options.word) return bytesMatcher(Buffer.from(pattern, 'utf8'));
  // A literal with -i or -w: an escaped string, with at most a lookaround of one character at
  // each end. V8 tries it at every place of a line, each try as long as the literal at worst:
  // a time bound is needed only for a long one (see LINEAR_LITERAL).
  if (options.fixed) {
    const literal = compileMatcher(escapeRegExp(pattern), { ...options, fixed: false }, written);
    return { ...literal, literal: true, ...(pattern.length <= LINEAR_LITERAL ? { linear: true } : {}) };
  }
  const regex = patternRegex(pattern, options, written);
  // A line is matched alone, so "." may match any character of it (the s flag); the pass over a
  // whole file finds candidates with "." kept within a line.
  const single = new RegExp(regex.source, `s${regex.flags}`);
  const global = new RegExp(regex.source, `gs${regex.flags}`);
  // Lookarounds could see the neighbouring line through the whole-file pass, and a pattern that
  // matches the empty string (^$, x*) would find a candidate everywhere: test line by line.
  if (compiled(written, regex).test('') || /\(\?<?[=!]/.test(pattern))
    return perLineMatcher(compiled(written, single), compiled(written, global));
  return regexMatcher(
    compiled(written, new RegExp(dotWithinLines(regex.source), `gm${regex.flags}`)),
    compiled(written, single),
    compiled(written, global),
  );
}

/**
 * `pattern` (not -F) as a JavaScript regular expression, with -i and -w: with Unicode semantics
 * where the pattern allows them; refused (exit 2) when it is no regular expression.
 */
function patternRegex(pattern: string, options: MatchOptions, written: string): RegExp {
  const flags = options.ignoreCase ? 'i' : '';
  // Unicode semantics (the u flag: \p{…}, whole code points) when the pattern allows them;
  // a pattern only valid without it (e.g. an escaped "-") is taken in the older dialect.
  // With -w the pattern is wrapped; it must be valid alone first (a pattern such as "a)|(b" is
  // not, and wrapped it would be).
  const unicode =
    compile(pattern, `${flags}u`) &&
    compile(options.word ? `${WORD_BEFORE}(?:${pattern})${WORD_AFTER}` : pattern, `${flags}u`);
  const regex =
    unicode ??
    (compile(pattern, flags) &&
      compile(options.word ? `${ASCII_WORD_BEFORE}(?:${pattern})${ASCII_WORD_AFTER}` : pattern, flags));
  if (!regex) {
    let message = 'invalid';
    try {
      new RegExp(pattern, flags);
    } catch (error) {
      // ("Invalid regular expression: /SOURCE/FLAGS: REASON": the source may be rewritten, the reason is the user's.)
      message = (error as Error).message.replace(/^[^]*: /, '');
    }
    const hints = ['patterns are JavaScript regular expressions; for a literal string, add -F'];
    if (/\(\?[a-z]+\)/.test(written)) hints.unshift('inline flags such as (?i) are not supported: use -i');
    throw new RtError('usage', `invalid pattern ${JSON.stringify(written)}: ${message}`, hints);
  }
  return regex;
}

/**
 * The matches of `pattern` in a line's content with their capture groups, as byte ranges: what
 * a replacement needs. Every match counts, empty ones too (`^` puts text before a line), each
 * found where the last ended (after an empty one, a character on), as JavaScript's replace finds
 * them. -F: the string's places, as bytes.
 */
export function capturingMatcher(
  pattern: string,
  options: MatchOptions,
  written = pattern,
): (content: Buffer) => Captured[] {
  if (options.fixed && !options.ignoreCase && !options.word) {
    const needle = Buffer.from(pattern, 'utf8');
    return (content) => {
      const out: Captured[] = [];
      if (needle.length === 0) return out;
      for (let at = content.indexOf(needle); at !== -1; at = content.indexOf(needle, at + needle.length))
        out.push({ range: [at, at + needle.length], groups: [], named: new Map() });
      return out;
    };
  }
  const regex = patternRegex(options.fixed ? escapeRegExp(pattern) : pattern, { ...options, fixed: false }, written);
  const global = compiled(written, new RegExp(regex.source, `dgs${regex.flags}`));
  return (content) => capturesIn(global, content);
}

function capturesIn(global: RegExp, content: Buffer): Captured[] {
  const text = content.toString('utf8');
  const found: RegExpExecArray[] = [];
  global.lastIndex = 0;
  for (;;) {
    const m = global.exec(text);
    if (!m) break;
    found.push(m);
    if (m[0] === '') {
      const pair = global.unicode && /^[\ud800-\udbff][\udc00-\udfff]/.test(text.slice(m.index, m.index + 2));
      global.lastIndex = m.index + (pair ? 2 : 1);
      if (global.lastIndex > text.length) break;
    }
  }
  // Every offset of every group, mapped to bytes at once (byteOffsets takes them ascending).
  const offsets = [...new Set(found.flatMap((m) => m.indices!.flatMap((r) => r ?? [])))].sort((a, b) => a - b);
  const bytes = byteOffsets(content, offsets);
  const byteOf = new Map(offsets.map((o, i) => [o, bytes[i]!]));
  const range = (r: [number, number] | undefined): ByteRange | undefined => r && [byteOf.get(r[0])!, byteOf.get(r[1])!];
  return found.map((m) => ({
    range: range(m.indices![0])!,
    groups: [...m.indices!].map(range),
    named: new Map(Object.entries(m.indices!.groups ?? {}).map(([name, r]) => [name, range(r)])),
  }));
}

/**
 * `regex`, compiled: V8 compiles a regular expression when it first runs, and refuses one too
 * big then (a SyntaxError, "Stack overflow" or "Regular expression too large"), which must be
 * the pattern's error, not one of a search half done.
 */
function compiled(pattern: string, regex: RegExp): RegExp {
  try {
    regex.test('');
    regex.test('\u0100'); // (text of two-byte characters compiles apart)
  } catch (error) {
    const reason = (error as Error).message.replace(/^[^]*: /, '');
    throw new RtError(
      'usage',
      `the pattern is too big for JavaScript's regular expressions (${reason}): ` +
        JSON.stringify(pattern.length > 60 ? `${pattern.slice(0, 60)}…` : pattern),
      ['search for a shorter pattern, or with ripgrep'],
    );
  } finally {
    regex.lastIndex = 0;
  }
  return regex;
}

/**
 * The matcher of a search: a line matches when any of `patterns` does (each given with -e), or
 * with `invert` (-v) when none does.
 */
export function compileSearch(
  patterns: readonly string[],
  options: MatchOptions & { readonly invert: boolean },
  written = patterns,
): LineMatcher {
  const each = patterns.map((p, i) => compileMatcher(p, options, written[i]));
  const any = each.length === 1 ? each[0]! : anyOf(each);
  return options.invert ? inverted(any) : any;
}

/**
 * A line matches when one of `matchers` does; its matches are theirs, leftmost first (the first matcher's of two at one
 * place).
 */
function anyOf(matchers: readonly LineMatcher[]): LineMatcher {
  return {
    linear: matchers.every((m) => m.linear === true),
    literal: matchers.every((m) => m.literal === true),
    matchingLines(bytes, bomLength, limit) {
      // The first `limit` lines of the union are among the first `limit` of one of them.
      const lines = new Set(matchers.flatMap((m) => m.matchingLines(bytes, bomLength, limit)));
      return [...lines].sort((a, b) => a - b).slice(0, limit);
    },
    matchesIn(content, limit = Infinity) {
      const all = matchers.flatMap((m, which) => m.matchesIn(content).map(([start, end]) => ({ start, end, which })));
      all.sort((a, b) => a.start - b.start || a.which - b.which);
      const out: MatchRange[] = [];
      for (const { start, end } of all) {
        if (out.length >= limit) break;
        if (start >= (out[out.length - 1]?.[1] ?? 0)) out.push([start, end]);
      }
      return out;
    },
  };
}

/**
 * A matcher that knows the lines it matches by their content (decoded, no line ending), with
 * their matches as UTF-16 ranges: the lines another program (ripgrep, for -P) selected.
 */
export function knownLinesMatcher(lines: ReadonlyMap<string, ReadonlyArray<readonly [number, number]>>): LineMatcher {
  return {
    linear: true,
    matchingLines(bytes, bomLength, limit) {
      const out: number[] = [];
      for (let start = bomLength, line = 0; start < bytes.length && out.length < limit; line++) {
        const { contentEnd, next } = lineContentRange(bytes, start);
        if (lines.has(bytes.toString('utf8', start, contentEnd))) out.push(line);
        if (next === -1) break;
        start = next;
      }
      return out;
    },
    matchesIn(content, limit = Infinity) {
      const ranges = lines.get(content.toString('utf8'))?.slice(0, limit) ?? [];
      const bytes = byteOffsets(content, ranges.flat());
      const out: MatchRange[] = [];
      for (let i = 0; i < bytes.length; i += 2) if (bytes[i]! < bytes[i + 1]!) out.push([bytes[i]!, bytes[i + 1]!]);
      return out;
    },
  };
}

/** The lines `matcher` does not match (-v); they hold no match to mark. */
function inverted(matcher: LineMatcher): LineMatcher {
  return {
    linear: matcher.linear === true,
    literal: matcher.literal === true,
    matchingLines(bytes, bomLength, limit) {
      const matching = matcher.matchingLines(bytes, bomLength, Infinity);
      const out: number[] = [];
      const count = lineCount(bytes, bomLength);
      for (let line = 0, next = 0; line < count && out.length < limit; line++) {
        if (matching[next] === line) next++;
        else out.push(line);
      }
      return out;
    },
    matchesIn: () => [],
  };
}

function compile(source: string, flags: string): RegExp | undefined {
  try {
    return new RegExp(source, flags);
  } catch {
    return undefined;
  }
}

/** A literal as a pattern: only the characters that are syntax are escaped (valid with or without the u flag). */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/**
 * The longest literal (UTF-16 units; bytes for one searched as bytes) whose search is taken as
 * linear (LineMatcher.linear). Neither V8's regular expressions nor Buffer.indexOf find a literal
 * in linear time: a line of 1 MB of "a" costs some 0.5 ns × the literal's length a byte with -i
 * (2 s for a literal of 4,000 characters), and indexOf on "a…ab…a" as much. Up to this length
 * that is well within the time a search may take a MiB (see matchAllowanceMs); beyond, the
 * search keeps its bound.
 */
export const LINEAR_LITERAL = 128;

/** A literal pattern: searched as bytes, so it finds text in files that are not valid UTF-8 too. */
function bytesMatcher(needle: Buffer): LineMatcher {
  return {
    linear: needle.length <= LINEAR_LITERAL,
    literal: true,
    needle,
    matchingLines(bytes, bomLength, limit) {
      const out: number[] = [];
      if (needle.length === 0) return everyLine().matchingLines(bytes, bomLength, limit);
      let line = 0;
      let lineStart = bomLength;
      for (let at = bytes.indexOf(needle, bomLength); at !== -1 && out.length < limit; ) {
        // Count the lines between the last hit and this one.
        for (let nl = bytes.indexOf(0x0a, lineStart); nl !== -1 && nl < at; nl = bytes.indexOf(0x0a, lineStart)) {
          line++;
          lineStart = nl + 1;
        }
        const { contentEnd, next } = lineContentRange(bytes, lineStart);
        // A needle reaching into the line ending (e.g. ending in \r) does not match the content.
        if (at + needle.length <= contentEnd) {
          out.push(line);
          if (next === -1) break;
          line++;
          lineStart = next;
          at = bytes.indexOf(needle, next);
        } else {
          at = bytes.indexOf(needle, at + 1);
        }
      }
      return out;
    },
    matchesIn(content, limit = Infinity) {
      const out: MatchRange[] = [];
      if (needle.length === 0) return out;
      for (
        let at = content.indexOf(needle);
        at !== -1 && out.length < limit;
        at = content.indexOf(needle, at + needle.length)
      )
        out.push([at, at + needle.length]);
      return out;
    },
  };
}

/** The non-empty matches of `global` (a regular expression with the g flag) in a line's content, as byte ranges. */
function regexRanges(global: RegExp, content: Buffer, limit: number): MatchRange[] {
  const text = content.toString('utf8');
  const at: number[] = [];
  global.lastIndex = 0;
  while (at.length < 2 * limit) {
    const m = global.exec(text);
    if (!m) break;
    if (m[0] === '') {
      // Past an empty match by one character (a whole surrogate pair with the u flag).
      const pair = global.unicode && /^[\ud800-\udbff][\udc00-\udfff]/.test(text.slice(m.index, m.index + 2));
      global.lastIndex = m.index + (pair ? 2 : 1);
      if (global.lastIndex > text.length) break;
      continue;
    }
    at.push(m.index, m.index + m[0].length);
  }
  const bytes = byteOffsets(content, at);
  const out: MatchRange[] = [];
  // (A match of half a surrogate pair, possible without the u flag, comes out empty: left out.)
  for (let i = 0; i < bytes.length; i += 2) if (bytes[i]! < bytes[i + 1]!) out.push([bytes[i]!, bytes[i + 1]!]);
  return out;
}

/**
 * A regular expression: run over the whole decoded file to find candidates quickly, each
 * candidate line then confirmed on its own content, so a match never spans lines.
 */
function regexMatcher(whole: RegExp, single: RegExp, global: RegExp): LineMatcher {
  return {
    matchesIn: (content, limit = Infinity) => regexRanges(global, content, limit),
    matchingLines(bytes, bomLength, limit) {
      let text = bytes.toString('utf8', bomLength);
      // Line contents exclude the \r of a CRLF ending; $ must match before it.
      if (text.includes('\r\n')) text = text.replace(/\r\n/g, '\n');
      const out: number[] = [];
      let line = 0;
      let lineStart = 0;
      whole.lastIndex = 0;
      while (out.length < limit) {
        const m = whole.exec(text);
        if (!m) break;
        for (let nl = text.indexOf('\n', lineStart); nl !== -1 && nl < m.index; nl = text.indexOf('\n', lineStart)) {
          line++;
          lineStart = nl + 1;
        }
        const end = text.indexOf('\n', lineStart);
        const content = text.slice(lineStart, end === -1 ? text.length : end);
        if (single.test(content)) {
          out.push(line);
        }
        if (end === -1) break;
        // Go on from the next line (also past a match that only looked like one across lines).
        line++;
        lineStart = end + 1;
        whole.lastIndex = lineStart;
      }
      return out;
    },
  };
}

/** Each line tested on its own: for patterns whose matches depend on what surrounds them. */
function perLineMatcher(single: RegExp, global: RegExp): LineMatcher {
  return {
    matchesIn: (content, limit = Infinity) => regexRanges(global, content, limit),
    matchingLines(bytes, bomLength, limit) {
      const text = bytes.toString('utf8', bomLength);
      const out: number[] = [];
      let line = 0;
      for (let start = 0; start <= text.length && out.length < limit; line++) {
        const nl = text.indexOf('\n', start);
        if (nl === -1 && start === text.length) break; // after a final newline: no more lines
        let end = nl === -1 ? text.length : nl;
        if (end > start && text.charCodeAt(end - 1) === 13 && nl !== -1) end--; // CRLF
        if (single.test(text.slice(start, end))) out.push(line);
        if (nl === -1) break;
        start = nl + 1;
      }
      return out;
    },
  };
}

/** A pattern that matches the empty string matches every line. */
function everyLine(): LineMatcher {
  return {
    matchingLines(bytes, bomLength, limit) {
      const out: number[] = [];
      const count = lineCount(bytes, bomLength);
      for (let i = 0; i < count && out.length < limit; i++) out.push(i);
      return out;
    },
    matchesIn: () => [],
  };
}

/** How many lines `bytes` (a whole file) holds, as rt counts them: a last line needs no \n. */
export function lineCount(bytes: Buffer, bomLength: number): number {
  let count = 0;
  for (let at = bytes.indexOf(0x0a, bomLength); at !== -1; at = bytes.indexOf(0x0a, at + 1)) count++;
  if (bytes.length > bomLength && bytes[bytes.length - 1] !== 0x0a) count++;
  return count;
}
