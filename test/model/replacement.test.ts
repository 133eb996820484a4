// rt replace's replacement text, read as ripgrep's --replace reads it ($1, ${1}, $name, ${name},
// $$; the longest name without braces; a missing group stands for nothing), and a line's matches
// replaced with every other byte kept.

import { describe, expect, it } from 'vitest';
import { parseReplacement, replaceMatches, type Captured } from '../../src/model/replacement.js';

/** A line's matches of `regex` as rt replace takes them (byte ranges; the line here is ASCII). */
function capturesOf(regex: RegExp, line: string): Captured[] {
  const out: Captured[] = [];
  const g = new RegExp(regex.source, `dg${regex.flags.replace(/[dg]/g, '')}`);
  for (const m of line.matchAll(g)) {
    const idx = m.indices!;
    out.push({
      range: idx[0]!,
      groups: [...idx],
      named: new Map(Object.entries(idx.groups ?? {})),
    });
  }
  return out;
}

const replaced = (regex: RegExp, line: string, template: string, literal = false) =>
  replaceMatches(parseReplacement(template, literal), Buffer.from(line), capturesOf(regex, line)).toString();

describe('parseReplacement, as ripgrep reads --replace', () => {
  it.each([
    ['$1', 'a-b', 'a'],
    ['${1}x', 'a-b', 'ax'],
    ['$1x', 'a-b', ''], // the group named "1x": none
    ['$2$1', 'a-b', 'ba'],
    ['<$3$4>', 'a-b', '<>'], // group 3 took no part; there is no group 4
    ['$0!', 'a-b', 'a-b!'],
    ['$$1', 'a-b', '$1'],
    ['$', 'a-b', '$'],
    ['a$-b', 'a-b', 'a$-b'],
    ['${', 'a-b', '${'],
    ['${}', 'a-b', '${}'],
    ['${x', 'a-b', '${x'],
    ['${a-b}', 'a-b', '${a-b}'], // only letters, digits and _ name a group in braces
    ['${é}', 'a-b', '${é}'],
    ['$first/${last}', 'a-b', 'a/b'],
    ['$first_', 'a-b', ''], // "first_" is a name of its own
    ['$01', 'a-b', 'a'], // a number, read as one
    ['é$1é', 'a-b', 'éaé'],
  ])('%s', (template, line, want) => {
    expect(replaced(/(?<first>a)-(?<last>b)|(?<z>q)/, line, template)).toBe(want);
  });

  it('-F takes the text as it is', () => {
    expect(replaced(/a/, 'xax', '$1${x}$$', true)).toBe('x$1${x}$$x');
  });
});

describe('replaceMatches', () => {
  it('replaces every match, leftmost first, and keeps the rest', () => {
    expect(replaced(/o/, 'foo boo', '0')).toBe('f00 b00');
    expect(replaced(/(\w+)@(\w+)/, 'mail a@b and c@d.', '$2 at $1')).toBe('mail b at a and d at c.');
  });

  it('an empty match inserts at its place, as sed and ripgrep do', () => {
    expect(replaced(/^/, 'line', '// ')).toBe('// line');
  });

  it('copies groups as bytes: bytes that are not UTF-8 survive being moved', () => {
    const line = Buffer.from([0x61, 0xff, 0x2d, 0x62]); // a\xff-b
    const match: Captured = {
      range: [0, 4],
      groups: [
        [0, 4],
        [0, 2],
        [3, 4],
      ],
      named: new Map(),
    };
    expect(replaceMatches(parseReplacement('$2=$1'), line, [match])).toEqual(Buffer.from([0x62, 0x3d, 0x61, 0xff]));
  });
});
