// Reading the text of a JavaScript regular expression without compiling it: the one change rt
// makes to it, and what ripgrep's smart case asks of it.

import { posixClassAt } from './posixClasses.js';

/**
 * `source` (a valid pattern) with each "." outside a class written [^\n]: for the pass over a
 * whole file, where "." must match any character of a line (a \r that ends no line, U+2028,
 * U+2029, which JavaScript's "." does not) but never step into the next line.
 */
export function dotWithinLines(source: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      out += source.slice(i, i + 2);
      i++;
    } else if (inClass) {
      // In JavaScript the first "]" ends a class, even right after "[" or "[^".
      if (c === ']') inClass = false;
      out += c;
    } else if (c === '[') {
      inClass = true;
      out += c;
    } else out += c === '.' ? '[^\\n]' : c;
  }
  return out;
}

const UPPER = /\p{Uppercase}/u;

/**
 * Whether ripgrep's smart case (-S) ignores case for these patterns: when they hold at least one
 * literal character and none of their literal characters is upper case. A literal is a character
 * standing for itself, in a class or not, or written as an escape (\x41, \u0041); the escapes of
 * classes (\W, \S, \p{Lu}), group syntax, quantifiers and references are none.
 */
export function smartCaseIgnores(patterns: readonly string[], fixed: boolean): boolean {
  const literals = fixed ? patterns.join('') : patterns.map(literalText).join('');
  return literals !== '' && !UPPER.test(literals);
}

/** One escape at the start of a pattern's rest: \xHH, \u{H…}, \uHHHH, a class, a name, a control, a reference. */
const ESCAPE = new RegExp(
  String.raw`^\\(?:x([0-9A-Fa-f]{2})|u\{([0-9A-Fa-f]+)\}|u([0-9A-Fa-f]{4})|[pP]\{[^}]*\}|k<[^>]*>|c[A-Za-z]|` +
    String.raw`[0-9]+|[dDwWsSbB]|(.))`,
  'su',
);

/** The literal characters of a pattern (see smartCaseIgnores), in no particular order. */
function literalText(pattern: string): string {
  let out = '';
  let inClass = false;
  // Where the class being read starts, past "[" and then past a "^".
  let classStart = -1;
  for (let i = 0; i < pattern.length; ) {
    const c = pattern[i]!;
    if (c === '\\') {
      const escape = ESCAPE.exec(pattern.slice(i));
      if (!escape) break;
      const code = escape[1] ?? escape[2] ?? escape[3];
      if (code !== undefined) out += String.fromCodePoint(Math.min(parseInt(code, 16), 0x10ffff));
      else if (escape[4] !== undefined) out += escape[4];
      i += escape[0].length;
      continue;
    }
    if (inClass) {
      // A POSIX class ([:upper:]) holds no literal, as in ripgrep.
      const posix = posixClassAt(pattern, i);
      if (posix) {
        i += posix;
        continue;
      }
      // A "]" first in a class (after "^" or not) is the character itself, as in ripgrep.
      if (c === ']' && i !== classStart) inClass = false;
      else if (c === '^' && i === classStart && pattern[i - 1] === '[') classStart++;
      else out += c;
      i++;
      continue;
    }
    const syntax = /^(?:\[|\(\?(?::|<?[=!]|<[^>]*>)|\{\d+(?:,\d*)?\}|[.*+?^$|()])/.exec(pattern.slice(i));
    if (syntax) {
      inClass = syntax[0] === '[';
      i += syntax[0].length;
      classStart = i;
      continue;
    }
    const char = String.fromCodePoint(pattern.codePointAt(i)!);
    out += char;
    i += char.length;
  }
  return out;
}
