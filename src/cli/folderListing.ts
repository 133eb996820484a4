// `rt open DIR`, the ls of rt: a header line (`--- DIR (N entries) ---`, as a file's
// window has one), then the folder's entries, sorted, one a line — a folder with
// a final / and the number of files under it (binary ones included), a file with its number of
// lines (a binary file marked, not counted). The files are those `rt find` considers (git's
// ignore rules, no hidden files unless --hidden or --no-ignore; a file git still lists but that
// is gone, or under a folder now a link, is not), a line each `NAME<TAB>COUNT`; at most the
// window's size (else the range cap), then a line on stderr saying how many more.

import path from 'node:path';
import { printable } from '../model/errors.js';
import { MAX_RANGE } from '../model/window.js';
import { countOf, folderEntries } from '../search/folderEntries.js';
import type { ResolvedPath } from '../store/root.js';
import type { Context } from './context.js';
import { listOptions } from './commands/searchOptions.js';
import { commandLine, noteUndecodable } from './searchNotes.js';
import { explicitWindowSize } from './shared.js';

/** The options of `rt open DIR`. */
export interface FolderOptions {
  readonly window: number | undefined;
  readonly hidden: boolean;
  readonly ignore: boolean;
}

export function listFolder(ctx: Context, options: FolderOptions, dir: ResolvedPath): number {
  const { entries: sorted, undecodable } = folderEntries(ctx.root, dir, listOptions(options));
  noteUndecodable(ctx, undecodable);
  const cap = explicitWindowSize(ctx, options) ?? MAX_RANGE;
  const shown = sorted.slice(0, cap);
  const rows = shown.map((e) => ({ ...e, ...(e.folder ? {} : countOf(path.join(dir.abs, e.name), ctx.root.dir)) }));
  ctx.emit({
    command: 'open',
    path: dir.display,
    folder: true,
    entries: rows.map((r) =>
      r.folder
        ? { name: `${r.name}/`, kind: 'folder', files: r.files }
        : r.binary
          ? { name: r.name, kind: 'file', binary: true }
          : r.outside
            ? { name: r.name, kind: 'link', outside: true }
            : { name: r.name, kind: 'file', lines: r.lines ?? null },
    ),
    more: sorted.length - shown.length,
  });
  // A header as a file's window has: the folder, and how many entries it holds (which of them, when capped).
  const held =
    shown.length < sorted.length
      ? `entries 1-${shown.length} of ${sorted.length}`
      : `${sorted.length} ${sorted.length === 1 ? 'entry' : 'entries'}`;
  if (ctx.text) ctx.out(`${ctx.style.header(`--- ${printable(dir.display)} (${held}) ---`)}\n`);
  for (const r of ctx.text ? rows : []) {
    const count = r.folder
      ? `${r.files} ${r.files === 1 ? 'file' : 'files'}`
      : r.binary
        ? 'binary'
        : r.outside
          ? 'a link out of the root (not read)'
          : r.lines === undefined
            ? 'unreadable'
            : `${r.lines} ${r.lines === 1 ? 'line' : 'lines'}`;
    ctx.out(`${printable(r.name)}${r.folder ? '/' : ''}\t${count}\n`);
  }
  if (sorted.length > shown.length) {
    const flags = [
      '--window',
      String(sorted.length),
      ...(options.hidden ? ['--hidden'] : []),
      ...(!options.ignore ? ['--no-ignore'] : []),
    ];
    const more = sorted.length - shown.length;
    ctx.warn(
      `${more} more ${more === 1 ? 'entry' : 'entries'} not shown: ${commandLine('open', flags, [dir.display])}`,
    );
  }
  if (sorted.length === 0)
    ctx.warn(
      `${dir.display} holds no file rt lists` +
        (options.hidden || !options.ignore
          ? ''
          : ' (hidden and ignored files are left out: add --hidden or --no-ignore)'),
    );
  return 0;
}
