// POSIX classes in a search pattern, as grep and ripgrep read them: [[:digit:]], [^[:space:],],
// [[:^alpha:]]. To JavaScript, [[:digit:]] is a class of "[:digt" followed by "]", which no one
// means: each is written out as the JavaScript class ripgrep's means (ASCII only, as ripgrep's
// are), so that every search path (rt's matcher and the prefilters built from its pattern)
// reads the same. A class holding one that cannot be written so faithfully is refused.
// A "]" first in a class (after "^" or not) is the character itself to ripgrep, where JavaScript
// reads "[]" as a class of nothing and "[^]" as any character: it is written escaped.

import { RtError } from '../model/errors.js';

/**
 * ripgrep's POSIX classes (the regex crate's), as JavaScript class bodies valid with and without
 * the u flag. With -i they fold as ripgrep's do: [[:upper:]] matches a, ſ and the Kelvin sign too.
 */
const POSIX: Readonly<Record<string, string>> = {
  alnum: '0-9A-Za-z',
  alpha: 'A-Za-z',
  ascii: '\\x00-\\x7F',
  blank: '\\t ',
  cntrl: '\\x00-\\x1F\\x7F',
  digit: '0-9',
  graph: '!-~',
  lower: 'a-z',
  print: ' -~',
  punct: '!-\\/:-@\\[-`{-~',
  space: '\\t\\n\\v\\f\\r ',
  upper: 'A-Z',
  word: '0-9A-Za-z_',
  xdigit: '0-9A-Fa-f',
};

/** A POSIX class within a class (sticky): whether negated, and its name (any word: an unknown one is refused). */
const POSIX_ITEM = /\[:(\^?)(\w+):\]/y;

/** The length of the POSIX class at `at` in `pattern`, within a class (0 when none is there): what holds no literal. */
export function posixClassAt(pattern: string, at: number): number {
  POSIX_ITEM.lastIndex = at;
  return POSIX_ITEM.exec(pattern)?.[0].length ?? 0;
}

const NAMES = `${Object.keys(POSIX).join(', ')} (each negated as [[:^digit:]])`;

/**
 * `pattern` (a JavaScript regular expression) with each class holding POSIX classes written as
 * JavaScript, and a "]" first in a class escaped; the pattern itself when it holds neither.
 * Refused (exit 2): an unknown name, a range ending at a POSIX class, and within such a class a
 * nested class or ripgrep's set operations (&&, --, ~~), which JavaScript would read otherwise.
 */
export function withPosixClasses(pattern: string): string {
  if (!pattern.includes('[:') && !/\[\^?\]/.test(pattern)) return pattern;
  let out = '';
  for (let i = 0; i < pattern.length; ) {
    const c = pattern[i]!;
    if (c === '\\') {
      out += pattern.slice(i, i + 2);
      i += 2;
    } else if (c === '[') {
      const cls = readClass(pattern, i);
      out += cls.text;
      i = cls.end;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** The class that starts at `start`, as JavaScript, and where it ends (past its "]"). */
function readClass(pattern: string, start: number): { text: string; end: number } {
  let at = start + 1;
  const negated = pattern[at] === '^';
  if (negated) at++;
  // A "]" first is the character itself, as in ripgrep (JavaScript would end the class there),
  // and so is a "-" after it (ripgrep starts no range at that "]").
  let lead = '';
  if (pattern[at] === ']') {
    lead = '\\]';
    at++;
    if (pattern[at] === '-' && pattern[at + 1] !== ']' && pattern[at + 1] !== '-') {
      lead += '\\-';
      at++;
    }
  }
  const afterLead = at;
  // The class's characters as JavaScript, its positive POSIX classes written in; the bodies of its negated ones.
  let own = '';
  const complements: string[] = [];
  let posix = false;
  // Whether the last thing read is a "-" that would make a range.
  let dash = false;
  own += lead;
  while (at < pattern.length && pattern[at] !== ']') {
    const c = pattern[at]!;
    if (c === '\\') {
      own += pattern.slice(at, at + 2);
      at += 2;
      dash = false;
      continue;
    }
    POSIX_ITEM.lastIndex = at;
    const item = POSIX_ITEM.exec(pattern);
    if (!item) {
      dash = c === '-' && own !== '';
      own += c;
      at++;
      continue;
    }
    const [text, caret, name] = item as unknown as [string, string, string];
    const body = POSIX[name];
    if (body === undefined) throw refusal(pattern, `unknown POSIX class ${text}`, `the POSIX classes are ${NAMES}`);
    // A "-" before it would make a range ending at it, which ripgrep refuses; one after it is a "-".
    if (dash) {
      const hint = 'write "-" first or last in the class, or escaped (\\-), for the character itself';
      throw refusal(pattern, `a range cannot end at the POSIX class ${text}`, hint);
    }
    posix = true;
    if (caret) complements.push(body);
    else own += body;
    at += text.length;
    if (pattern[at] === '-' && pattern[at + 1] !== ']' && pattern[at + 1] !== '-') {
      own += '\\-';
      at++;
    }
  }
  const written = pattern.slice(start, at + 1);
  if (!posix) {
    const text = lead ? `[${negated ? '^' : ''}${lead}${pattern.slice(afterLead, at + 1)}` : written;
    return { text, end: start + written.length };
  }
  if (at >= pattern.length) {
    throw refusal(pattern, `the class ${JSON.stringify(written)} is not closed`, 'end it with "]"');
  }
  // ripgrep reads "[" in such a class as a nested class, and &&, -- and ~~ as set operations.
  const inner = written
    .slice(negated ? 2 : 1, -1)
    .replace(/\\[^]/g, '')
    .replace(new RegExp(POSIX_ITEM.source, 'g'), '\x01');
  if (/\[|&&|--|~~/.test(inner)) {
    const what = 'a nested class or a set operation (&&, --, ~~), which JavaScript reads otherwise than ripgrep';
    throw refusal(pattern, `the class ${JSON.stringify(written)} holds a POSIX class beside ${what}`, [
      'write it as one class without them (e.g. [0-9a-f]), or as an alternation of classes',
    ]);
  }
  const end = at + 1;
  if (complements.length === 0) return { text: `[${negated ? '^' : ''}${own}]`, end };
  // A negated POSIX class is the set of characters outside it: a class of its own, joined to the
  // rest as an alternative (or, in a negated class, as what the character must be).
  const ownClass = own === '' ? undefined : `[${own.startsWith('^') ? '\\' : ''}${own}]`;
  if (!negated) {
    const parts = [...(ownClass ? [ownClass] : []), ...complements.map((body) => `[^${body}]`)];
    return { text: parts.length === 1 ? parts[0]! : `(?:${parts.join('|')})`, end };
  }
  const [first, ...others] = complements;
  if (!ownClass && others.length === 0) return { text: `[${first}]`, end };
  const within = others.map((body) => `(?=[${body}])`).join('');
  return { text: `(?:${ownClass ? `(?!${ownClass})` : ''}${within}[${first}])`, end };
}

function refusal(pattern: string, message: string, hints: readonly string[] | string): RtError {
  const lines = typeof hints === 'string' ? [hints] : [...hints];
  return new RtError('usage', `${message}, in the pattern ${JSON.stringify(pattern)}`, lines);
}
