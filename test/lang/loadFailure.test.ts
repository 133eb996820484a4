// A grammar that cannot load never blocks a write: the check answers `skipped`, with why.

import { describe, expect, it, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import { createEngine } from '../../src/lang/engine.js';

vi.mock('../../src/lang/loadEngine.js', () => ({
  loadEngine: async () => createEngine((file) => readFileSync(`/nonexistent/grammars/${file}`)),
}));

describe('a grammar that fails to load', () => {
  it('prepareChecker resolves with the reason, and the check is skipped with it', async () => {
    const { newErrors, prepareChecker, syntaxErrors } = await import('../../src/lang/syntax.js');
    const prepared = await prepareChecker('go');
    expect(prepared.ok).toBe(false);
    expect(!prepared.ok && prepared.reason).toMatch(/^the go grammar did not load \(.*ENOENT/);
    const check = newErrors('go', Buffer.from('package a\n'), Buffer.from('package a\nfunc (\n'));
    expect(check).toEqual({ status: 'skipped', reason: !prepared.ok && prepared.reason });
    expect(syntaxErrors('go', Buffer.from('func (')).status).toBe('skipped');
  });

  it('JSON needs no grammar: it is checked all the same', async () => {
    const { newErrors, prepareChecker } = await import('../../src/lang/syntax.js');
    expect(await prepareChecker('json')).toEqual({ ok: true });
    expect(newErrors('json', Buffer.from('{}'), Buffer.from('{')).status).toBe('errors');
  });
});
