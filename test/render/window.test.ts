// The display of a line (SPEC §1): exact bytes, a hit's matches coloured on a terminal.

import { describe, expect, it } from 'vitest';
import { renderLine } from '../../src/render/window.js';
import { PLAIN, styleFor } from '../../src/render/style.js';

const ESC = /\u001b\[[0-9;]*m/g;

describe('renderLine with marks', () => {
  const colour = styleFor(1);
  it('colours each match of a hit, and nothing else changes', () => {
    const out = renderLine(3, 'kq3f', Buffer.from('foo bar foo'), '|', colour, 'a.ts', [[0, 3], [8, 11]]).toString('utf8');
    expect(out.replace(ESC, '')).toBe('a.ts:3:kq3f|foo bar foo\n');
    expect(out).toContain('\u001b[1m\u001b[31mfoo\u001b[39m\u001b[22m bar \u001b[1m\u001b[31mfoo');
  });

  it('without colour, marks change nothing', () => {
    expect(renderLine(3, 'kq3f', Buffer.from('foo bar'), '|', PLAIN, undefined, [[0, 3]]).toString('utf8')).toBe('3:kq3f|foo bar\n');
  });
});
