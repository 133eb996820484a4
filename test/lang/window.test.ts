// Where the check cuts a file (window.ts): around the edit, before top-level code; a file of
// up to 3,000 lines with no top-level code near the window's edge is parsed whole.

import { describe, expect, it } from 'vitest';
import { lineOffsets, windowOf, WINDOWED_FROM_LINES, WINDOW_CONTEXT } from '../../src/lang/window.js';

const bytes = (lines: readonly string[]): Buffer => Buffer.from(`${lines.join('\n')}\n`);
/** Top-level functions of ten lines, each after a blank line. */
const functions = (count: number): string[] =>
  Array.from({ length: count }, (_, i) => (i % 10 === 0 ? '' : i % 10 === 1 ? `function f${i}(a: number): number {` : i % 10 === 9 ? '}' : `  a = a + ${i};`));
/** One class whose body is every line: no top-level code after the first line. */
const oneClass = (count: number): string[] => Array.from({ length: count }, (_, i) => (i === 0 ? 'class C {' : i === count - 1 ? '}' : i % 10 === 0 ? '' : `  m${i}() { return ${i}; }`));

function windowAt(lines: readonly string[], line: number) {
  const text = bytes(lines);
  const starts = lineOffsets(text);
  return windowOf(text, starts, starts, [{ oldStart: line, oldEnd: line + 1, newStart: line, newEnd: line + 1 }]);
}

describe('windowOf', () => {
  it(`parses a file of ${WINDOWED_FROM_LINES} lines or fewer whole`, () => {
    expect(windowAt(functions(WINDOWED_FROM_LINES), 300)).toBeUndefined();
  });

  it('cuts a 1,200-line file of functions before top-level code, some WINDOW_CONTEXT lines each side', () => {
    const lines = functions(1200);
    const window = windowAt(lines, 600)!;
    expect(window).toBeDefined();
    for (const cut of [window.newFrom, window.newTo]) {
      expect(lines[cut - 1]).toBe('');
      expect(lines[cut]).toMatch(/^function /);
    }
    expect(600 - 1 - window.newFrom).toBeGreaterThanOrEqual(WINDOW_CONTEXT);
    expect(window.newTo - 600).toBeGreaterThanOrEqual(WINDOW_CONTEXT);
    expect(window.newTo - window.newFrom).toBeLessThan(2 * WINDOW_CONTEXT + 30);
  });

  it('parses a 1,200-line class whole: no top-level code to cut before', () => {
    expect(windowAt(oneClass(1200), 600)).toBeUndefined();
  });

  it('cuts a class of more than 3,000 lines anyway, 400 lines from the edit', () => {
    const window = windowAt(oneClass(10_000), 5000)!;
    expect(window).toEqual({ oldFrom: 5000 - 1 - 400, oldTo: 5000 + 400, newFrom: 5000 - 1 - 400, newTo: 5000 + 400 });
  });

  it('starts at the first line when asked (PHP)', () => {
    const text = bytes(functions(5000));
    const starts = lineOffsets(text);
    const window = windowOf(text, starts, starts, [{ oldStart: 3000, oldEnd: 3001, newStart: 3000, newEnd: 3001 }], true)!;
    expect(window.newFrom).toBe(0);
    expect(window.newTo).toBeLessThan(3500);
  });

  it('keeps the file start and end as cuts', () => {
    const lines = functions(1200);
    expect(windowAt(lines, 20)!.newFrom).toBe(0);
    expect(windowAt(lines, 1190)!.newTo).toBe(1200);
  });

  it('maps the window below an insert to the old lines', () => {
    const old = functions(1200);
    const now = [...old.slice(0, 600), '  a = 0;', '  a = 1;', ...old.slice(600)];
    const oldBytes = bytes(old);
    const newBytes = bytes(now);
    const window = windowOf(newBytes, lineOffsets(newBytes), lineOffsets(oldBytes), [{ oldStart: 601, oldEnd: 601, newStart: 601, newEnd: 603 }])!;
    expect(window.oldFrom).toBe(window.newFrom);
    expect(window.oldTo).toBe(window.newTo - 2);
    expect(old[window.oldTo]).toBe(now[window.newTo]);
  });
});
