// Finding the lines of a file that match a pattern. The dialect is JavaScript's RegExp (with the
// u flag when the pattern allows it); -F takes the pattern literally. A match never spans lines:
// each line is matched on its content alone (no line ending, no BOM), as ripgrep does, and "."
// matches any character of it (a \r that ends no line, U+2028 and U+2029 too, as in grep and
// ripgrep, where JavaScript's own "." would not).

import { RtError } from './errors.js';
import { lineContentRange } from './lineScan.js';
import { dotWithinLines } from './patternText.js';

export interface MatchOptions {
  readonly fixed: boolean;
  readonly ignoreCase: boolean;
  readonly word: boolean;
}

export interface LineMatcher {
  /** 0-based numbers of the lines of `bytes` (a whole file) that match, ascending. */
  matchingLines(bytes: Buffer, bomLength: number, limit: number): number[];
}

/** Whether one line's content (no line ending, no BOM) matches. */
export function matchesLine(matcher: LineMatcher, content: Buffer): boolean {
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
export function matchingAmong(matcher: LineMatcher, bytes: Buffer, bomLength: number, candidates: readonly number[]): number[] {
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

export function compileMatcher(pattern: string, options: MatchOptions): LineMatcher {
  if (pattern.includes('\n')) throw new RtError('usage', 'the pattern holds a newline, and matches never span lines', ['search for one line at a time']);
  if (options.fixed && !options.ignoreCase && !options.word) return bytesMatcher(Buffer.from(pattern, 'utf8'));
  const base = options.fixed ? escapeRegExp(pattern) : pattern;
  const flags = options.ignoreCase ? 'i' : '';
  // Unicode semantics (the u flag: \p{…}, whole code points) when the pattern allows them;
  // a pattern only valid without it (e.g. an escaped "-") is taken in the older dialect.
  // With -w the pattern is wrapped; it must be valid alone first (a pattern such as "a)|(b" is
  // not, and wrapped it would be).
  const unicode = compile(base, `${flags}u`) && compile(options.word ? `${WORD_BEFORE}(?:${base})${WORD_AFTER}` : base, `${flags}u`);
  const regex = unicode ?? (compile(base, flags) && compile(options.word ? `${ASCII_WORD_BEFORE}(?:${base})${ASCII_WORD_AFTER}` : base, flags));
  if (!regex) {
    let message = 'invalid';
    try {
      new RegExp(base, flags);
    } catch (error) {
      message = (error as Error).message.replace(/^Invalid regular expression: /, '');
    }
    const hints = ['patterns are JavaScript regular expressions; for a literal string, add -F'];
    if (/\(\?[a-z]+\)/.test(pattern)) hints.unshift('inline flags such as (?i) are not supported: use -i');
    throw new RtError('usage', `invalid pattern ${JSON.stringify(pattern)}: ${message}`, hints);
  }
  // A line is matched alone, so "." may match any character of it (the s flag); the pass over a
  // whole file finds candidates with "." kept within a line.
  const single = new RegExp(regex.source, `s${regex.flags}`);
  // Lookarounds could see the neighbouring line through the whole-file pass, and a pattern that
  // matches the empty string (^$, x*) would find a candidate everywhere: test line by line.
  if (regex.test('') || /\(\?<?[=!]/.test(base)) return perLineMatcher(single);
  return regexMatcher(new RegExp(dotWithinLines(regex.source), `gm${regex.flags}`), single);
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

/** A literal pattern: searched as bytes, so it finds text in files that are not valid UTF-8 too. */
function bytesMatcher(needle: Buffer): LineMatcher {
  return {
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
  };
}

/**
 * A regular expression: run over the whole decoded file to find candidates quickly, each
 * candidate line then confirmed on its own content, so a match never spans lines.
 */
function regexMatcher(whole: RegExp, single: RegExp): LineMatcher {
  return {
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
function perLineMatcher(single: RegExp): LineMatcher {
  return {
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
      let count = 0;
      for (let at = bytes.indexOf(0x0a, bomLength); at !== -1; at = bytes.indexOf(0x0a, at + 1)) count++;
      if (bytes.length > bomLength && bytes[bytes.length - 1] !== 0x0a) count++;
      for (let i = 0; i < count && out.length < limit; i++) out.push(i);
      return out;
    },
  };
}
