// The display of a line: exact bytes, cut past 2,000 characters with a marker; a hit's
// matches coloured on a terminal, and a hit whose first match lies past the cut shown around it.

import { describe, expect, it } from 'vitest';
import { displayContent, DISPLAY_LIMIT, renderLine } from '../../src/render/window.js';
import { PLAIN, styleFor } from '../../src/render/style.js';

const shown = (content: Buffer, marks: ReadonlyArray<readonly [number, number]> = []) =>
  Buffer.concat(displayContent(content, marks)).toString('utf8');
const ESC = /\u001b\[[0-9;]*m/g;

describe('displayContent', () => {
  it('a line of up to 2,000 characters is shown whole, whatever its marks', () => {
    const line = Buffer.from(`${'é'.repeat(1990)}abc`);
    expect(shown(line, [[3980, 3983]])).toBe(line.toString('utf8'));
  });

  it('a longer line is cut after 2,000 characters, as before, when its first match ends within them', () => {
    const line = Buffer.from(`ab${'x'.repeat(2500)}`);
    expect(shown(line)).toBe(`ab${'x'.repeat(1998)}… [+502 chars]`);
    expect(shown(line, [[0, 2]])).toBe(shown(line));
    expect(shown(Buffer.from(`${'x'.repeat(1997)}abc${'y'.repeat(10)}`), [[1997, 2000]])).toBe(
      `${'x'.repeat(1997)}abc… [+10 chars]`,
    );
  });

  it('a match past the cut is shown in the middle of 2,000 characters, the rest counted on each side', () => {
    const line = Buffer.from(`${'x'.repeat(3000)}NEEDLE${'y'.repeat(3000)}`);
    const text = shown(line, [[3000, 3006]]);
    expect(text).toBe(`[+2003 chars] …${'x'.repeat(997)}NEEDLE${'y'.repeat(997)}… [+2003 chars]`);
    // Near the end of the line, the last 2,000 characters.
    const end = Buffer.from(`${'x'.repeat(3000)}NEEDLE`);
    expect(shown(end, [[3000, 3006]])).toBe(`[+1006 chars] …${'x'.repeat(1994)}NEEDLE`);
  });

  it('counts characters, not bytes, and cuts between characters', () => {
    const line = Buffer.from(`${'é'.repeat(3000)}NEEDLE${'é'.repeat(100)}`);
    const text = shown(line, [[6000, 6006]]);
    const m = /^\[\+(\d+) chars\] …(.*)$/su.exec(text)!;
    expect([...m[1]!].length).toBeGreaterThan(0);
    expect([...m[2]!].length).toBe(DISPLAY_LIMIT);
    expect(m[2]!.endsWith(`NEEDLE${'é'.repeat(100)}`)).toBe(true);
    expect(Number(m[1]) + DISPLAY_LIMIT).toBe(3106);
  });

  it('a match longer than the limit is shown from its start', () => {
    const line = Buffer.from(`${'x'.repeat(2500)}${'a'.repeat(2500)}z`);
    expect(shown(line, [[2500, 5000]])).toBe(`[+2500 chars] …${'a'.repeat(2000)}… [+501 chars]`);
  });

  it('keeps bytes that are not UTF-8 as they are', () => {
    const line = Buffer.concat([
      Buffer.alloc(3000, 0x78),
      Buffer.from([0xff]),
      Buffer.from('NEEDLE'),
      Buffer.alloc(10, 0x79),
    ]);
    const bytes = Buffer.concat(displayContent(line, [[3001, 3007]]));
    expect(bytes.includes(Buffer.from([0xff, 0x4e, 0x45]))).toBe(true);
  });
});

describe('renderLine with marks', () => {
  const colour = styleFor(1);
  it('colours each match of a hit, and nothing else changes', () => {
    const out = renderLine(3, 'kq3f', Buffer.from('foo bar foo'), '|', colour, 'a.ts', [
      [0, 3],
      [8, 11],
    ]).toString('utf8');
    expect(out.replace(ESC, '')).toBe('a.ts:3:kq3f|foo bar foo\n');
    expect(out).toContain('\u001b[1m\u001b[31mfoo\u001b[39m\u001b[22m bar \u001b[1m\u001b[31mfoo');
  });

  it('without colour, marks change nothing', () => {
    expect(renderLine(3, 'kq3f', Buffer.from('foo bar'), '|', PLAIN, undefined, [[0, 3]]).toString('utf8')).toBe(
      '3:kq3f|foo bar\n',
    );
  });

  it('a coloured match cut by the display limit is coloured within what is shown', () => {
    const line = Buffer.from(`${'x'.repeat(3000)}NEEDLE${'y'.repeat(3000)}`);
    const out = renderLine(1, 'kq3f', line, '|', colour, undefined, [[3000, 3006]]).toString('utf8');
    expect(out.replace(ESC, '')).toBe(
      `1:kq3f|[+2003 chars] …${'x'.repeat(997)}NEEDLE${'y'.repeat(997)}… [+2003 chars]\n`,
    );
    expect(out).toContain('\u001b[31mNEEDLE\u001b[39m');
  });
});
