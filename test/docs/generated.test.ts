import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generatedDocs, packageVersion } from '../../src/docs/generate.js';
import { COMMANDS } from '../../src/cli/commands/index.js';

const root = path.resolve(__dirname, '../..');

describe('generated documents', () => {
  for (const [file, text] of Object.entries(
    generatedDocs(packageVersion(root), fs.readFileSync(path.join(root, 'README.md'), 'utf8')),
  )) {
    it(`${file} is what the command definitions generate (run npm run docs)`, () => {
      expect(fs.readFileSync(path.join(root, file), 'utf8')).toBe(text);
    });
  }

  it('documents every command and option in the man page', () => {
    const man = fs.readFileSync(path.join(root, 'man/rt.1'), 'utf8');
    for (const c of COMMANDS) {
      expect(man).toContain(`.SS rt ${c.name}`);
      for (const o of c.options) expect(man).toContain(`\\-\\-${o.long}`);
    }
  });
});

describe('command definitions', () => {
  it('have unique names, and every option a summary and unique names', () => {
    expect(new Set(COMMANDS.map((c) => c.name)).size).toBe(COMMANDS.length);
    for (const c of COMMANDS) {
      const longs = c.options.map((o) => o.long);
      expect(new Set(longs).size).toBe(longs.length);
      for (const o of c.options) {
        expect(o.summary.length).toBeGreaterThan(0);
        if (o.kind !== 'switch') expect(o.value, `${c.name} --${o.long} needs a placeholder`).toBeTruthy();
      }
      expect(c.examples.length).toBeGreaterThan(0);
      expect(c.exits.some(([code]) => code === 0)).toBe(true);
    }
  });
});
