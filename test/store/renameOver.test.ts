// renameOver: a big file replaced by a rename is freed off the main thread, through a second
// name removed by the folder's descriptor; nothing of it is left, whatever happens after.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { buildSync } from 'esbuild';
import { afterEach, describe, expect, it } from 'vitest';
import { ASIDE_FROM, asideRemoved, renameOver } from '../../src/store/renameOver.js';
import { tempFolders } from '../support/tempFolders.js';

const startedIn = process.cwd();
afterEach(() => process.chdir(startedIn));
const folder = tempFolders('rt-rename-over-');

const big = (byte: number) => Buffer.alloc(ASIDE_FROM + 3, byte);
const linux = fs.existsSync('/proc/self/fd/');

describe('renameOver', () => {
  it('replaces a big file, keeps another hard link of the old one as it was, and leaves no second name', async () => {
    const dir = folder();
    const target = path.join(dir, 'f.txt');
    fs.writeFileSync(target, big(0x61));
    fs.linkSync(target, path.join(dir, 'user-link.txt'));
    fs.writeFileSync(path.join(dir, 'new.tmp'), big(0x62));
    const drop = renameOver(path.join(dir, 'new.tmp'), target, path.join(dir, '.f.txt.rt-tmp-1-abcdef'));
    expect(fs.existsSync(path.join(dir, '.f.txt.rt-tmp-1-abcdef'))).toBe(linux); // the second name, until dropped
    drop();
    await asideRemoved();
    expect(fs.readFileSync(target).equals(big(0x62))).toBe(true);
    expect(fs.readFileSync(path.join(dir, 'user-link.txt')).equals(big(0x61))).toBe(true);
    expect(fs.readdirSync(dir).sort()).toEqual(['f.txt', 'user-link.txt']);
  });

  it('removes the second name in the folder it was made in, though rt has entered another since', async () => {
    const dir = folder();
    const other = folder();
    fs.mkdirSync(path.join(dir, 'sub'));
    process.chdir(path.join(dir, 'sub'));
    fs.writeFileSync('f.txt', big(0x61));
    fs.writeFileSync('new.tmp', big(0x62));
    fs.writeFileSync(path.join(other, '.f.txt.rt-tmp-1-abcdef'), 'not rt');
    const drop = renameOver('new.tmp', 'f.txt', '.f.txt.rt-tmp-1-abcdef');
    process.chdir(other);
    drop();
    await asideRemoved();
    expect(fs.readdirSync(path.join(dir, 'sub'))).toEqual(['f.txt']);
    expect(fs.readFileSync(path.join(other, '.f.txt.rt-tmp-1-abcdef'), 'utf8')).toBe('not rt');
  });

  it('makes no second name for a small file', () => {
    const dir = folder();
    fs.writeFileSync(path.join(dir, 'f.txt'), 'old\n');
    fs.writeFileSync(path.join(dir, 'new.tmp'), 'new\n');
    renameOver(path.join(dir, 'new.tmp'), path.join(dir, 'f.txt'), path.join(dir, '.aside'));
    expect(fs.readdirSync(dir)).toEqual(['f.txt']);
    expect(fs.readFileSync(path.join(dir, 'f.txt'), 'utf8')).toBe('new\n');
  });

  it('removes the second name at once when the rename fails, and throws its error', () => {
    const dir = folder();
    fs.writeFileSync(path.join(dir, 'f.txt'), big(0x61));
    expect(() => renameOver(path.join(dir, 'missing.tmp'), path.join(dir, 'f.txt'), path.join(dir, '.aside'))).toThrow(
      /ENOENT/,
    );
    expect(fs.readdirSync(dir)).toEqual(['f.txt']);
    expect(fs.readFileSync(path.join(dir, 'f.txt')).equals(big(0x61))).toBe(true);
  });

  it('leaves nothing when the process ends with process.exit before the removal ran', () => {
    const dir = folder();
    fs.writeFileSync(path.join(dir, 'f.txt'), Buffer.alloc(64 << 20, 0x61));
    fs.writeFileSync(path.join(dir, 'new.tmp'), 'new\n');
    const module = path.join(folder(), 'renameOver.mjs');
    buildSync({
      entryPoints: [path.join(startedIn, 'src/store/renameOver.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: module,
      logLevel: 'silent',
    });
    const script =
      `import { renameOver } from ${JSON.stringify(module)}; renameOver('new.tmp', 'f.txt', '.aside')(); ` +
      `process.exit(0);`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(fs.readdirSync(dir)).toEqual(['f.txt']);
  });
});
