// The RT_* variables: read in one module, under one rule for a switch (unset or empty: its
// default; 0, false, no, off in any case: off; anything else: on).

import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSettings, switchOf } from '../../src/settings/env.js';

describe('one rule for every switch', () => {
  it.each([
    [undefined, false, false],
    [undefined, true, true],
    ['', false, false],
    ['', true, true],
    ['1', false, true],
    ['yes', false, true],
    ['on', true, true],
    ['anything', false, true],
    ['0', true, false],
    ['false', true, false],
    ['No', true, false],
    ['OFF', true, false],
  ])('%j with the default %j is %j', (value, fallback, on) => {
    expect(switchOf(value, fallback)).toBe(on);
  });

  it('switches off by default (RT_DIFF, RT_READONLY, RT_DEBUG), on by default (the others), empty as unset', () => {
    const unset = readSettings({});
    expect([unset.diff, unset.readOnly, unset.debug]).toEqual([false, false, false]);
    expect([unset.state, unset.check, unset.ripgrep, unset.gitGrep]).toEqual([true, true, true, true]);
    const empty = readSettings({
      RT_DIFF: '',
      RT_READONLY: '',
      RT_DEBUG: '',
      RT_STATE: '',
      RT_CHECK: '',
      RT_RIPGREP: '',
      RT_GIT_GREP: '',
    });
    expect({ ...empty, env: undefined }).toEqual({ ...unset, env: undefined });
    const off = readSettings({ RT_STATE: 'no', RT_CHECK: 'off', RT_RIPGREP: '0', RT_GIT_GREP: 'False', RT_DEBUG: '0' });
    expect([off.state, off.check, off.ripgrep, off.gitGrep, off.debug]).toEqual([false, false, false, false, false]);
    const on = readSettings({ RT_DIFF: '1', RT_READONLY: 'yes', RT_DEBUG: 'x' });
    expect([on.diff, on.readOnly, on.debug]).toEqual([true, true, true]);
  });

  it('a variable that takes a value reads an empty one as unset', () => {
    const empty = readSettings({ RT_ROOT: '', RT_WINDOW: '', RT_SESSION: '', RT_INDENT: '' });
    expect([empty.root, empty.window, empty.session, empty.indent]).toEqual([undefined, undefined, undefined, 'keep']);
    const set = readSettings({ RT_ROOT: '/r', RT_WINDOW: '40', RT_SESSION: 'agent-1', RT_INDENT: 'auto' });
    expect([set.root, set.window, set.session, set.indent]).toEqual(['/r', 40, 'agent-1', 'auto']);
  });

  it('RT_WINDOW and RT_SESSION are refused where they are read, not before', () => {
    const bad = readSettings({ RT_WINDOW: 'lots', RT_SESSION: '../x' });
    expect(() => bad.window).toThrow('RT_WINDOW takes a whole number of lines, 1 or more (got "lots")');
    expect(() => bad.session).toThrow(/RT_SESSION must be a name of letters/);
  });

  it('rt mcp names a session for a connection only where RT_SESSION names none', () => {
    const named = readSettings({ RT_SESSION: 'mine' }).withSession(() => 'mcp-1');
    expect(named.session).toBe('mine');
    const fresh = readSettings({ RT_SESSION: '', RT_READONLY: '1' }).withSession(() => 'mcp-1');
    expect([fresh.session, fresh.env.RT_SESSION, fresh.readOnly]).toEqual(['mcp-1', 'mcp-1', true]);
  });
});

describe('RT_* variables are read in one module', () => {
  const src = path.resolve(__dirname, '../../src');
  const files = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const abs = path.join(dir, e.name);
      return e.isDirectory() ? files(abs) : /\.(ts|js|cjs|mjs)$/.test(e.name) ? [abs] : [];
    });

  it('no source file but src/settings/env.ts mentions env.RT_ or env[…RT_…]', () => {
    const reading = /\benv\s*(?:\.\s*RT_|\[\s*['"`]RT_)/;
    const readers = files(src)
      .filter((abs) => reading.test(fs.readFileSync(abs, 'utf8')))
      .map((abs) => path.relative(src, abs));
    expect(readers).toEqual([path.join('settings', 'env.ts')]);
  });
});
