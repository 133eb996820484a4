// The one sink of searches (search/sink.ts): for each file with hits, in the order printed,
// begin, then its lines ascending (hits as matched, lines around them as context), then finish;
// counts (-c, -l) report begin and finish alone.

import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { Context } from '../../src/cli/context.js';
import type { FolderQuery } from '../../src/search/engine.js';
import { compileSearch } from '../../src/search/match.js';
import { capHits, reportCounts, reportHits, type FileHits } from '../../src/search/report.js';
import { searchPaths } from '../../src/search/searchPaths.js';
import type { SearchSink } from '../../src/search/sink.js';
import { folderQuery } from '../support/folderQuery.js';
import { tempFolders } from '../support/tempFolders.js';
import { readSettings } from '../../src/settings/env.js';
import { openIndexed } from '../../src/store/indexedFile.js';
import { listedPath } from '../../src/store/root.js';

const folder = tempFolders('rt-sink-');

/** A sink that writes down what it hears. */
function recorder(): { sink: SearchSink; heard: string[] } {
  const heard: string[] = [];
  return {
    heard,
    sink: {
      begin: (file) => heard.push(`begin ${file.display}`),
      matched: (line) => heard.push(`matched ${line.n} ${line.content}`),
      context: (line) => heard.push(`context ${line.n} ${line.content}`),
      finish: (file, found) => heard.push(`finish ${file.display} ${found}`),
    },
  };
}

function world(dir: string): Context {
  return new Context(
    dir,
    readSettings({ RT_STATE: 'off', RT_RIPGREP: 'off', RT_GIT_GREP: 'off', PATH: process.env.PATH }),
    { stdout: { write: () => true }, stderr: { write: () => true } },
    { isTTY: false, read: () => Buffer.alloc(0) },
    dir,
  );
}

async function heardFrom(q: FolderQuery, max = 200): Promise<string[]> {
  const dir = folder();
  fs.writeFileSync(path.join(dir, 'b.txt'), 'x\nhit one\ny\nz\nw\nhit two\n');
  fs.mkdirSync(path.join(dir, 'a'));
  fs.writeFileSync(path.join(dir, 'a', 'c.txt'), 'hit\n');
  fs.writeFileSync(path.join(dir, 'none.txt'), 'nothing\n');
  const ctx = world(dir);
  const matcher = compileSearch(q.matched, { fixed: false, ignoreCase: false, word: false, invert: q.invert });
  const found = await searchPaths(ctx, q, matcher, 'rg');
  const { sink, heard } = recorder();
  if (q.count) {
    reportCounts(found.files, (i) => found.hits[i]!.length, sink);
    return heard;
  }
  const { shown } = capHits(found.files, found.hits, (abs) => found.engine.linesRead(abs), max);
  const options = { before: q.before, after: q.after, matcher, marking: false, cutOver: 2000, ripgrep: 'rg' };
  reportHits(ctx, shown, options, sink);
  return heard;
}

describe('the sink hears', () => {
  it('each file begun, its hits in line order, each file finished, files as a tree is read', async () => {
    expect(await heardFrom(folderQuery(['hit']))).toEqual([
      'begin a/c.txt',
      'matched 1 hit',
      'finish a/c.txt 1',
      'begin b.txt',
      'matched 2 hit one',
      'matched 6 hit two',
      'finish b.txt 2',
    ]);
  });

  it('lines of context as context, between and around the hits, each once', async () => {
    expect(await heardFrom(folderQuery(['hit'], { before: 1, after: 1 }))).toEqual([
      'begin a/c.txt',
      'matched 1 hit',
      'finish a/c.txt 1',
      'begin b.txt',
      'context 1 x',
      'matched 2 hit one',
      'context 3 y',
      'context 5 w',
      'matched 6 hit two',
      'finish b.txt 2',
    ]);
  });

  it('only the hits the cap lets through', async () => {
    expect(await heardFrom(folderQuery(['hit']), 2)).toEqual([
      'begin a/c.txt',
      'matched 1 hit',
      'finish a/c.txt 1',
      'begin b.txt',
      'matched 2 hit one',
      'finish b.txt 1',
    ]);
  });

  it('for counts, begin and finish alone, with the count', async () => {
    expect(await heardFrom(folderQuery(['hit'], { count: true }))).toEqual([
      'begin a/c.txt',
      'finish a/c.txt 1',
      'begin b.txt',
      'finish b.txt 2',
    ]);
  });
});

describe('hits reported as the search read them', () => {
  /** A file with a saved index that its stamp lets stand for it (changed a while before it was indexed). */
  function indexed(): { ctx: Context; abs: string } {
    const dir = folder();
    fs.mkdirSync(path.join(dir, '.rt'));
    const abs = path.join(fs.realpathSync(dir), 'f.txt');
    fs.writeFileSync(abs, 'x\nhit one\ny\nhit two\nhit three\n');
    const ctx = new Context(
      dir,
      readSettings({ RT_RIPGREP: 'off', RT_GIT_GREP: 'off', PATH: process.env.PATH }),
      { stdout: { write: () => true }, stderr: { write: () => true } },
      { isTTY: false, read: () => Buffer.alloc(0) },
      dir,
    );
    const file = listedPath(ctx.root, abs, 'f.txt');
    // Indexed as if a while after its change (its change time is now): its stamp then stands for it.
    const later = vi.spyOn(Date, 'now').mockReturnValue(Date.now() + 10_000);
    try {
      openIndexed(ctx.stateOf(file), file).persist();
      ctx.flushState();
    } finally {
      later.mockRestore();
    }
    return { ctx, abs };
  }

  /** What the sink hears of `lines` of the file, with the lines found given (as read) or not (the file is read). */
  function heard(ctx: Context, abs: string, lines: number[], given: boolean): string[] {
    const matcher = compileSearch(['hit'], { fixed: true, ignoreCase: false, word: false, invert: false });
    const found = new Map([
      [2, Buffer.from('hit one')],
      [4, Buffer.from('hit two')],
      [5, Buffer.from('hit three')],
    ]);
    const hits: FileHits[] = [{ file: { abs, display: 'f.txt' }, lines, ...(given ? { found } : {}) }];
    const out: string[] = [];
    reportHits(
      ctx,
      hits,
      { before: 0, after: 0, matcher, marking: true, cutOver: 2000, ripgrep: 'rg' },
      {
        begin: (file) => out.push(`begin ${file.display}`),
        matched: (line) => out.push(`matched ${line.n} ${line.lid} ${line.content} ${JSON.stringify(line.marks)}`),
        context: (line) => out.push(`context ${line.n} ${line.lid} ${line.content}`),
        finish: (file, n) => out.push(`finish ${file.display} ${n}`),
      },
    );
    return out;
  }

  it('with the LIDs and marks a reading of the file gives', () => {
    const { ctx, abs } = indexed();
    const read = heard(ctx, abs, [1, 3, 4], false);
    expect(read).toHaveLength(5);
    expect(read[1]).toMatch(/^matched 2 \w{4} hit one \[\[0,3\]\]$/);
    expect(heard(ctx, abs, [1, 3, 4], true)).toEqual(read);
  });

  it('lines given twice or out of order: as a reading of the file reports them', () => {
    const { ctx, abs } = indexed();
    for (const lines of [
      [1, 1, 3],
      [3, 1],
    ])
      expect(heard(ctx, abs, lines, true)).toEqual(heard(ctx, abs, lines, false));
  });
});
