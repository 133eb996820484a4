// Finding the lines of a file that match a pattern. The dialect is JavaScript's RegExp (without
// the u flag); -F takes the pattern literally. A match never spans lines: each line is matched
// on its content alone (no line ending, no BOM), as ripgrep does.

import { RtError } from './errors.js';
import { lineContentRange } from './lineScan.js';

export interface MatchOptions {
  readonly fixed: boolean;
  readonly ignoreCase: boolean;
  readonly word: boolean;
}

export interface LineMatcher {
  /** 0-based numbers of the lines of `bytes` (a whole file) that match, ascending. */
  matchingLines(bytes: Buffer, bomLength: number, limit: number): number[];
}

/** Word characters for -w, as ripgrep's ASCII default: letters, digits, underscore. */
const WORD_BEFORE = '(?<![A-Za-z0-9_])';
const WORD_AFTER = '(?![A-Za-z0-9_])';

export function compileMatcher(pattern: string, options: MatchOptions): LineMatcher {
  if (pattern.includes('\n')) throw new RtError('usage', 'the pattern holds a newline, and matches never span lines', ['search for one line at a time']);
  if (options.fixed && !options.ignoreCase && !options.word) return bytesMatcher(Buffer.from(pattern, 'utf8'));
  let source = options.fixed ? escapeRegExp(pattern) : pattern;
  if (options.word) source = `${WORD_BEFORE}(?:${source})${WORD_AFTER}`;
  let whole: RegExp;
  let single: RegExp;
  try {
    whole = new RegExp(source, `gm${options.ignoreCase ? 'i' : ''}`);
    single = new RegExp(source, options.ignoreCase ? 'i' : '');
  } catch (error) {
    throw new RtError('usage', `invalid pattern ${JSON.stringify(pattern)}: ${(error as Error).message.replace(/^Invalid regular expression: /, '')}`, [
      'patterns are JavaScript regular expressions; for a literal string, add -F',
    ]);
  }
  if (single.test('')) return everyLine();
  return regexMatcher(whole, single);
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
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
