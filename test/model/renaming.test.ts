// Carrying a parser's places to a line's bytes by rank, and refusing a line that changed since.

import { describe, expect, it } from 'vitest';
import { isPlainIdentifier, occurrences, rankAt, renameInLine } from '../../src/model/renaming.js';
import { isReservedWord } from '../../src/model/reservedWords.js';

describe('renameInLine', () => {
  it('renames the occurrences named by rank, leaving the others (a string, a comment) alone', () => {
    const line = Buffer.from('total(total) // total');
    expect(
      renameInLine(line, 'total', 3, [
        { rank: 1, text: 'sum' },
        { rank: 0, text: 'sum' },
      ])?.toString(),
    ).toBe('sum(sum) // total');
  });

  it('keeps bytes that are not UTF-8 around the name, and takes text with a prefix (old: new)', () => {
    const line = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(' { total } é')]);
    const text = new TextDecoder().decode(line);
    const rank = rankAt(text, 'total', text.indexOf('total'));
    const out = renameInLine(line, 'total', 1, [{ rank, text: 'total: sum' }])!;
    expect(out.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xfe]));
    expect(out.subarray(2).toString()).toBe(' { total: sum } é');
  });

  it('refuses a line where the name no longer occurs as often as when it was found', () => {
    expect(renameInLine(Buffer.from('total + total'), 'total', 1, [{ rank: 0, text: 'sum' }])).toBeUndefined();
    expect(renameInLine(Buffer.from('nothing here'), 'total', 1, [{ rank: 0, text: 'sum' }])).toBeUndefined();
    expect(renameInLine(Buffer.from('total'), 'total', 1, [{ rank: 1, text: 'sum' }])).toBeUndefined();
  });
});

describe('occurrences and ranks', () => {
  it('counts occurrences left to right without overlap, and ranks a column among them', () => {
    expect(occurrences('aaaa', 'aa')).toEqual([0, 2]);
    expect(rankAt('x = total + total', 'total', 12)).toBe(1);
    expect(rankAt('x = total + total', 'total', 5)).toBe(-1);
  });
});

describe('isPlainIdentifier', () => {
  it('takes letters, digits and _ (and $ where asked), not a leading digit, a dash or a space', () => {
    expect(['total', '_x', 'été', 'x9'].every((n) => isPlainIdentifier(n, false))).toBe(true);
    expect(['9x', 'a-b', 'a b', '', '$x'].some((n) => isPlainIdentifier(n, false))).toBe(false);
    expect(isPlainIdentifier('$x', true)).toBe(true);
  });
});

describe('isReservedWord', () => {
  it("refuses each language's keywords, and in JavaScript the names strict code may not bind", () => {
    for (const w of ['eval', 'arguments', 'await', 'yield', 'let', 'static', 'implements', 'class'])
      expect(isReservedWord('typescript', w), w).toBe(true);
    expect(isReservedWord('python', 'lambda')).toBe(true);
    expect(isReservedWord('python', 'match')).toBe(false);
    expect(isReservedWord('go', 'func')).toBe(true);
    expect(isReservedWord('rust', 'fn')).toBe(true);
    expect(isReservedWord('php', 'FUNCTION')).toBe(true);
    expect(isReservedWord('cpp', 'template')).toBe(true);
    expect(isReservedWord('c', 'template')).toBe(false);
    expect(isReservedWord('typescript', 'type')).toBe(false);
  });
});
