// The one sink of searches (search/sink.ts): for each file with hits, in the order printed,
// begin, then its lines ascending (hits as matched, lines around them as context), then finish;
// counts (-c, -l) report begin and finish alone.

import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Context } from '../../src/cli/context.js';
import type { FolderQuery } from '../../src/search/engine.js';
import { compileSearch } from '../../src/search/match.js';
import { capHits, reportCounts, reportHits } from '../../src/search/report.js';
import { searchPaths } from '../../src/search/searchPaths.js';
import type { SearchSink } from '../../src/search/sink.js';
import { folderQuery } from '../support/folderQuery.js';
import { tempFolders } from '../support/tempFolders.js';
import { readSettings } from '../../src/settings/env.js';

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
