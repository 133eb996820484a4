// The saved index read in parts: a window of an unchanged file reads the index's head and the
// records of its own blocks, each checked, and the file stays one JSON document.

import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { packEntries, packKeys, packText, plantEntries } from '../support/pack.js';
import { age, cleanup, expectCleanStderr, numbered, openWindow, run, tempDir, write } from './harness.js';

afterAll(cleanup);

/** A 5,000-line file opened once (its index saved) and made old enough to be trusted by its stamp. */
function indexed(): { dir: string; fresh: string } {
  const dir = tempDir();
  const file = write(dir, 'a.txt', numbered(5000));
  age(file);
  const fresh = run(['open', 'a.txt:4000', '--window', '5'], dir, { env: { RT_STATE: 'off' } }).stdout;
  run(['open', 'a.txt:1', '--window', '1'], dir);
  expect(packKeys(dir, 'index')).toEqual(['index:a.txt']);
  return { dir, fresh };
}

/** The saved index of `rel` (the newest entry of its key in the pack), as one byte a character. */
function indexText(dir: string, rel = 'a.txt'): string {
  return packEntries(dir).get(`index:${rel}`)!.bytes.toString('latin1');
}

/** Plants `text` (one byte a character) as the saved index of `rel`: the entry the next rt reads. */
function plantIndex(dir: string, text: string, rel = 'a.txt'): void {
  plantEntries(dir, [[`index:${rel}`, Buffer.from(text, 'latin1')]]);
}

describe('the saved index', () => {
  it('is one JSON document describing the file', () => {
    const { dir } = indexed();
    const doc = JSON.parse(packText(dir, 'index:a.txt')!) as Record<string, unknown>;
    expect(doc).toMatchObject({ format: 'rt-index', path: 'a.txt', lines: 5000 });
    expect((doc.records as string).length).toBe(5000 * 16);
    expect(Object.keys(doc).slice(-2)).toEqual(['records', 'retired']);
  });

  it('a window of an unchanged file gives the LIDs a fresh reading gives', () => {
    const { dir, fresh } = indexed();
    const r = run(['open', 'a.txt:4000', '--window', '5'], dir);
    expect(r.stdout).toBe(fresh);
    expect(r.stderr).toBe('');
  });

  it(
    'windows read from the index cut exactly the lines a fresh ' +
      'reading shows: CRLF, lone CR, a BOM, empty lines, no final newline',
    () => {
      const dir = tempDir();
      // Lines of odd endings across several 1,024-line blocks, seeded so a failure repeats.
      let seed = 7;
      const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
      const endings = ['\n', '\r\n', '\r\n', '\n'];
      const parts: Buffer[] = [Buffer.from([0xef, 0xbb, 0xbf])];
      for (let i = 0; i < 3000; i++) {
        const kind = next() % 10;
        const text =
          kind === 0 ? '' : kind === 1 ? 'lone\rcr' : kind === 2 ? 'tail\r' : `line ${i} ${'x'.repeat(next() % 30)}`;
        parts.push(Buffer.from(text + endings[next() % endings.length]!, 'latin1'));
      }
      parts.push(Buffer.from('no final newline'));
      const file = write(dir, 'odd.txt', Buffer.concat(parts));
      age(file);
      run(['open', 'odd.txt:1', '--window', '1'], dir); // saves the index
      for (const at of [
        'odd.txt:1-7',
        'odd.txt:1020-1030',
        'odd.txt:2040-2060',
        'odd.txt:2990-3001',
        'odd.txt:1500',
        'odd.txt:3001',
      ]) {
        const fresh = run(['open', at, '--window', '40'], dir, { env: { RT_STATE: 'off' } });
        const warm = run(['open', at, '--window', '40'], dir);
        expect(warm.stdoutBytes.equals(fresh.stdoutBytes), `${at}\n${warm.stdout}\n---\n${fresh.stdout}`).toBe(true);
      }
    },
  );

  it('damage to the records of the window being read is noticed: set aside, rebuilt, the same LIDs', () => {
    const { dir, fresh } = indexed();
    const text = indexText(dir);
    // Line 4000 is in the block of lines 3073-4096; change one character of one of its records.
    const at = text.indexOf('"records":"') + '"records":"'.length + 3999 * 16 + 5;
    const damaged = text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);
    plantIndex(dir, damaged);
    const r = run(['open', 'a.txt:4000', '--window', '5'], dir);
    expectCleanStderr(r);
    expect(r.stdout).toBe(fresh);
    expect(r.stderr).toMatch(/set aside \(its records of lines 3073-4096 are damaged\)/);
    expect(fs.readdirSync(path.join(dir, '.rt', 'set-aside'))).toHaveLength(1);
    // The rebuilt index serves the next window without a word.
    const again = run(['open', 'a.txt:4000', '--window', '5'], dir);
    expect(again.stdout).toBe(fresh);
    expect(again.stderr).toBe('');
  });

  it(
    'damage anywhere in a big index read whole (an edit: decoded in WebAssembly) ' +
      'is noticed: set aside, and the edit made as a fresh reading would',
    () => {
      // 20,000 lines: the edit reads every record (wasmRecords.ts), not a window's.
      for (const [what, change, why] of [
        ['a character changed', (c: string) => (c === 'A' ? 'B' : 'A'), /its records of lines 15361-16384 are damaged/],
        ['a character outside base64', () => '!', /its records are damaged/],
        ['padding', () => '=', /its records are damaged/],
      ] as const) {
        const dir = tempDir();
        const file = write(dir, 'b.txt', numbered(20000));
        age(file);
        run(['open', 'b.txt:1', '--window', '1'], dir);
        const fresh = run(['open', 'b.txt:16000', '--window', '1'], dir, { env: { RT_STATE: 'off' } });
        const text = indexText(dir, 'b.txt');
        const at = text.indexOf('"records":"') + '"records":"'.length + 15999 * 16 + 9;
        plantIndex(dir, text.slice(0, at) + change(text[at]!) + text.slice(at + 1), 'b.txt');
        const lid = /^16000:([0-9a-z]+)\|/m.exec(fresh.stdout)![1]!;
        const r = run(['edit', 'b.txt', lid, '--force'], dir, { input: 'edited\n' });
        expect(r.status, `${what}: ${r.stderr}`).toBe(0);
        expect(r.stderr, what).toMatch(why);
        expect(fs.readFileSync(file, 'utf8'), what).toBe(numbered(20000).replace('line 16000\n', 'edited\n'));
        expect(fs.readdirSync(path.join(dir, '.rt', 'set-aside')), what).toHaveLength(1);
      }
    },
  );

  it('an index cut short, or with bytes added, is set aside and rebuilt', () => {
    for (const change of [
      (t: string) => t.slice(0, -1),
      (t: string) => `${t} `,
      (t: string) => t.replace('"retired":"', '"retired":"AAAA'),
    ]) {
      const { dir, fresh } = indexed();
      plantIndex(dir, change(indexText(dir)));
      const r = run(['open', 'a.txt:4000', '--window', '5'], dir);
      expectCleanStderr(r);
      expect(r.stdout).toBe(fresh);
      expect(r.stderr).toMatch(/set aside/);
    }
  });

  it('an index of an earlier version of rt is replaced without a word', () => {
    const { dir, fresh } = indexed();
    const doc = JSON.parse(indexText(dir)) as Record<string, unknown>;
    plantIndex(dir, JSON.stringify({ ...doc, version: 4 }));
    const r = run(['open', 'a.txt:4000', '--window', '5'], dir);
    expect(r.stdout).toBe(fresh);
    expect(r.stderr).toBe('');
    expect(JSON.parse(indexText(dir)).version).toBe(5);
    expect(fs.existsSync(path.join(dir, '.rt', 'set-aside'))).toBe(false);
  });

  it(
    'after an edit of a big file, is trusted by its stamp when the write left its content time before its change ' +
      'time, else holds the CRC-32 of the bytes written (a stamp in one tick is not trusted alone)',
    () => {
      const dir = tempDir();
      const file = write(dir, 'big.txt', numbered(200_000));
      const w = openWindow(dir, 'big.txt:99998-100000');
      const r = run(['edit', 'big.txt', w.lidAt(100_000)], dir, { input: 'changed\n' });
      expect(r.status, r.text).toBe(0);
      const bytes = fs.readFileSync(file);
      expect(bytes.length).toBeGreaterThan(1 << 20);
      const doc = JSON.parse(indexText(dir, 'big.txt')) as { racy: boolean; content: string };
      const st = fs.statSync(file, { bigint: true });
      if (st.mtimeNs < st.ctimeNs) expect([doc.racy, doc.content]).toEqual([false, null]);
      else {
        expect(doc.racy).toBe(true);
        expect(doc.content).toBe(`crc32:${bytes.length}:${zlib.crc32(bytes).toString(16)}`);
      }
      // And the next edit takes the index as it is: the LIDs of the lines around stay.
      const again = run(['edit', 'big.txt', w.lidAt(99_999)], dir, { input: 'also changed\n' });
      expect(again.status, again.text).toBe(0);
      expect(again.stdout).toContain(`99998:${w.lidAt(99_998)}|line 99998`);
    },
  );

  it(
    'a first open of a big, settled file (read a piece at a ' +
      'time) shows the lines and LIDs that reading it whole shows',
    () => {
      const dir = tempDir();
      // Over 8 MiB, with a BOM, CRLF and lone CR lines, a line starting with a BOM's bytes, and no final newline.
      const parts: Buffer[] = [Buffer.from([0xef, 0xbb, 0xbf])];
      for (let i = 0; i < 200_000; i++)
        parts.push(
          Buffer.from(
            i % 7 === 0
              ? `crlf ${i}\r\n`
              : i % 11 === 0
                ? `lone\rcr ${i}\n`
                : i % 13 === 0
                  ? `\u00ef\u00bb\u00bfbom ${i}\n`
                  : `line ${i} ${'x'.repeat(24 + (i % 40))}\n`,
            'latin1',
          ),
        );
      parts.push(Buffer.from('no final newline'));
      const file = write(dir, 'big.txt', Buffer.concat(parts));
      expect(fs.statSync(file).size).toBeGreaterThan(8 << 20);
      const at = ['big.txt:1-3', 'big.txt:99999-100002', 'big.txt:199999-200001'];
      // Just written, its stamp is not trusted alone: it is read whole.
      const whole = at.map((a) => run(['open', a], dir, { env: { RT_STATE: 'off' } }).stdout);
      age(file);
      const first = run(['open', at[1]!], dir);
      expect(first.stdout).toBe(whole[1]);
      expect(first.stderr).toBe('');
      // The index it saved serves the others, as a whole reading would.
      at.forEach((a, i) => expect(run(['open', a], dir).stdout).toBe(whole[i]));
      // And an edit by its LIDs changes the line named.
      const w = openWindow(dir, 'big.txt:100000');
      expect(run(['edit', 'big.txt', w.lidAt(100_000)], dir, { input: 'edited\n' }).status).toBe(0);
      expect(fs.readFileSync(file, 'latin1').split('\n')[99_999]).toBe('edited');
    },
  );

  it(
    'a first open of a big file written moments ago is read a piece ' +
      'at a time too: the same lines and LIDs, an index not trusted alone',
    () => {
      const dir = tempDir();
      const file = write(
        dir,
        'big.txt',
        Buffer.from(
          Array.from({ length: 300_000 }, (_, i) =>
            i % 5 === 0 ? `crlf ${i}\r\n` : `line ${i} ${'y'.repeat(i % 40)}\n`,
          ).join(''),
          'latin1',
        ),
      );
      expect(fs.statSync(file).size).toBeGreaterThan(8 << 20);
      // Dated a minute ahead, it stays "written moments ago" however long the runs below take on
      // a busy machine (a stamp is racy until 2 s after it).
      const ahead = Date.now() / 1000 + 60;
      fs.utimesSync(file, ahead, ahead);
      const whole = run(['open', 'big.txt:150000', '--window', '7'], dir, { env: { RT_STATE: 'off' } }).stdout;
      const first = run(['open', 'big.txt:150000', '--window', '7'], dir);
      expect(first.stdout).toBe(whole);
      expect(first.stderr).toBe('');
      const doc = JSON.parse(indexText(dir, 'big.txt')) as { racy: boolean };
      expect(doc.racy).toBe(true);
      // Settled, the file is read again and keeps its LIDs; an edit by them lands where it should.
      age(file);
      expect(run(['open', 'big.txt:150000', '--window', '7'], dir).stdout).toBe(whole);
      const w = openWindow(dir, 'big.txt:150000', ['--window', '7']);
      expect(run(['edit', 'big.txt', w.lidAt(150_001)], dir, { input: 'edited\n' }).status).toBe(0);
      expect(fs.readFileSync(file, 'latin1').split('\n')[150_000]).toBe('edited');
    },
  );

  it(
    'a file changed just now but dated back (cp -p, tar, touch ' +
      '-d) is not trusted by its stamp alone: its change time counts',
    () => {
      const dir = tempDir();
      const file = write(dir, 'dated.txt', numbered(50));
      age(file); // its modification time an hour back; its change time is now
      expect(run(['open', 'dated.txt'], dir).status).toBe(0);
      const doc = JSON.parse(indexText(dir, 'dated.txt')) as { racy: boolean };
      expect(doc.racy).toBe(true);
    },
  );

  it('the head of a big index (digested in WebAssembly when all ASCII) is checked: damage to it is noticed', () => {
    // 500,000 lines: a head of some 12,000 characters (its checkpoints and block digests), digested
    // in WebAssembly; a name outside ASCII has it digested in JavaScript.
    for (const name of ['big.txt', 'bïg.txt']) {
      const dir = tempDir();
      age(write(dir, name, numbered(500_000)));
      const grep = ['grep-file', '-F', 'line 49999', name];
      const fresh = run(grep, dir, { env: { RT_STATE: 'off' } }).stdout;
      run(['open', `${name}:1`, '--window', '1'], dir);
      const saved = indexText(dir, name);
      expect(Buffer.byteLength(saved.slice(0, saved.indexOf('"records":"')))).toBeGreaterThan(10_000);
      const good = run(grep, dir);
      expect([good.stdout, good.stderr]).toEqual([fresh, '']);
      // A digit of a checkpoint changed, then a character of a block's digest: each set aside.
      const checkpoint = saved.indexOf('"checkpoints":[0,') + '"checkpoints":[0,'.length;
      const digest = saved.indexOf('"blocks":"') + '"blocks":"'.length + 100;
      for (const at of [checkpoint, digest]) {
        fs.rmSync(path.join(dir, '.rt', 'set-aside'), { recursive: true, force: true });
        plantIndex(dir, saved.slice(0, at) + (saved[at] === '1' ? '2' : '1') + saved.slice(at + 1), name);
        const r = run(grep, dir);
        expect(r.stdout, `${name} ${at}`).toBe(fresh);
        expect(r.stderr, `${name} ${at}`).toMatch(/set aside \(it is damaged\)/);
        expect(fs.readdirSync(path.join(dir, '.rt', 'set-aside'))).toHaveLength(1);
      }
    }
  });

  it('a path with characters outside ASCII is read back (the head is measured in bytes)', () => {
    const dir = tempDir();
    const name = 'ünï cødé — 文件.txt';
    age(write(dir, name, numbered(3000)));
    const fresh = run(['open', `${name}:2500`, '--window', '3'], dir, { env: { RT_STATE: 'off' } }).stdout;
    run(['open', name], dir);
    const r = run(['open', `${name}:2500`, '--window', '3'], dir);
    expect(r.stdout).toBe(fresh);
    expect(r.stderr).toBe('');
  });
  it(
    'a big index (its blocks decoded in WebAssembly) gives the hits of grep-file and a window only from ' +
      'the blocks holding them, each checked: a damaged one of those set aside, the LIDs a fresh reading gives',
    () => {
      // 100,000 lines (over 1 MiB: grep-file takes ripgrep's or its scan's lines, not reading the file again),
      // hits in blocks apart, in two neighbouring blocks, twice in one block and in the last block, which is short.
      const hits = new Set([5, 30_000, 51_199, 51_200, 51_201, 70_000, 70_100, 99_990]);
      let text = '';
      for (let i = 0; i < 100_000; i++) text += hits.has(i) ? `line ${i} needle\n` : `line ${i}\n`;
      const dir = tempDir();
      age(write(dir, 'big.txt', text));
      // Its change time is now: an index saved within RACY_MS of it would not be trusted alone.
      const settled = Date.now() + 2100;
      const commands = [
        ['grep-file', '-F', 'needle', 'big.txt'],
        ['grep-file', '-F', '-C', '2', 'needle', 'big.txt'],
        ['open', 'big.txt:51190', '--window', '30'],
        ['open', 'big.txt:99990', '--window', '30'],
      ];
      const fresh = commands.map((c) => run(c, dir, { env: { RT_STATE: 'off' } }).stdout);
      expect(fresh[0]!.split('\n')).toHaveLength(hits.size + 1);
      while (Date.now() < settled) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, settled - Date.now());
      run(['open', 'big.txt:1', '--window', '1'], dir);
      const saved = indexText(dir, 'big.txt');
      expect(saved).toContain('"racy":false');
      const damage = (line: number) => {
        const at = saved.indexOf('"records":"') + '"records":"'.length + line * 16 + 5;
        plantIndex(dir, saved.slice(0, at) + (saved[at] === 'A' ? 'B' : 'A') + saved.slice(at + 1), 'big.txt');
      };
      // A damaged block holding no hit is not read.
      damage(40_000);
      for (const [k, c] of commands.entries()) {
        const r = run(c, dir);
        expect(r.stdout, c.join(' ')).toBe(fresh[k]);
        expect(r.stderr, c.join(' ')).toBe('');
      }
      // One holding a hit is read, found damaged and set aside; the file is read whole.
      for (const [line, c] of [
        [70_050, commands[0]!],
        [99_999, commands[0]!],
        [51_210, commands[1]!],
        [51_210, commands[2]!],
      ] as const) {
        fs.rmSync(path.join(dir, '.rt', 'set-aside'), { recursive: true, force: true });
        damage(line);
        const r = run(c, dir);
        expect(r.stdout, c.join(' ')).toBe(fresh[commands.indexOf(c)]);
        const block = Math.floor(line / 1024);
        expect(r.stderr, c.join(' ')).toMatch(
          `set aside (its records of lines ${block * 1024 + 1}-${Math.min(100_000, block * 1024 + 1024)} are damaged)`,
        );
        expect(fs.readdirSync(path.join(dir, '.rt', 'set-aside'))).toHaveLength(1);
      }
      // Two hit blocks damaged, the earlier by a digest, the later by a character no base64 has:
      // the earlier is named, as reading the blocks one after another names it.
      const at = (line: number) => saved.indexOf('"records":"') + '"records":"'.length + line * 16 + 5;
      const firstSetAside = (earlier: number, later: number) => {
        fs.rmSync(path.join(dir, '.rt', 'set-aside'), { recursive: true, force: true });
        let text = saved;
        text = `${text.slice(0, at(earlier))}${text[at(earlier)] === 'A' ? 'B' : 'A'}${text.slice(at(earlier) + 1)}`;
        text = `${text.slice(0, at(later))}*${text.slice(at(later) + 1)}`;
        plantIndex(dir, text, 'big.txt');
        const r = run(commands[0]!, dir);
        expect(r.stdout).toBe(fresh[0]);
        return r.stderr.split('\n').filter((line) => line.includes('set aside'))[0];
      };
      expect(firstSetAside(30_010, 70_010)).toMatch('set aside (its records of lines 29697-30720 are damaged)');
      // The same in two neighbouring hit blocks, read as one run: the earlier is named.
      expect(firstSetAside(51_190, 51_210)).toMatch('set aside (its records of lines 50177-51200 are damaged)');
    },
  );
});
