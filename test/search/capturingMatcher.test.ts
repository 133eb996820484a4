// The matches a replacement takes, with their groups, as byte ranges of a line's content: found as
// JavaScript's replace finds them (empty matches too), cut from the right bytes in text that is
// not ASCII or not UTF-8.

import { describe, expect, it } from 'vitest';
import { parseReplacement, replaceMatches } from '../../src/model/replacement.js';
import { capturingMatcher } from '../../src/search/match.js';

const opts = { fixed: false, ignoreCase: false, word: false };

/** `line` with every match of `pattern` replaced by `template`, as rt replace writes it. */
function replaced(pattern: string, line: Buffer | string, template: string, options = opts): Buffer {
  const content = typeof line === 'string' ? Buffer.from(line) : line;
  return replaceMatches(
    parseReplacement(template, options.fixed),
    content,
    capturingMatcher(pattern, options)(content),
  );
}

describe('capturingMatcher', () => {
  it('gives the same text as JavaScript replace on UTF-8 lines', () => {
    const cases: Array<[string, string, string]> = [
      ['(\\w+)@(\\w+)', 'mail a@b and c@d.', '$2 at $1'],
      ['(?<k>é+)', 'xééy é', '[${k}]'],
      ['a*', 'baaac', 'X'],
      ['^', 'line', '// '],
      ['$', 'line', ';'],
      ['(\\p{L})😀', 'a😀b😀', '$1!'],
    ];
    for (const [pattern, line, template] of cases) {
      const js = line.replace(new RegExp(pattern, 'gu'), template.replace(/\$\{(\w+)\}/g, '$<$1>'));
      expect(replaced(pattern, line, template).toString(), pattern).toBe(js);
    }
  });

  it('keeps bytes that are not UTF-8, in the match and out of it', () => {
    const line = Buffer.concat([Buffer.from('a'), Buffer.from([0xff]), Buffer.from('-b'), Buffer.from([0xfe])]);
    expect(replaced('a(.)-b', line, '<$1>')).toEqual(
      Buffer.concat([Buffer.from('<'), Buffer.from([0xff]), Buffer.from('>'), Buffer.from([0xfe])]),
    );
  });

  it('-F: the string as bytes; with -i or -w, as an escaped expression', () => {
    expect(replaced('a.b', 'a.b axb', 'X', { ...opts, fixed: true }).toString()).toBe('X axb');
    // (-F takes the replacement as it is, $0 included.)
    expect(replaced('A.B', 'a.b axb', '$0', { fixed: true, ignoreCase: true, word: false }).toString()).toBe('$0 axb');
    expect(replaced('x', 'x xy _x x', 'Y', { ...opts, word: true }).toString()).toBe('Y xy _x Y');
  });
});
