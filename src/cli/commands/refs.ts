// rt refs: a symbol's definition and references across the project, printed as grep -p prints
// hits (each file's under the definitions enclosing them), through the one sink.

import { ripgrepCommand } from '../../search/query.js';
import { escapeRegExp } from '../../search/match.js';
import { capHits } from '../../search/report.js';
import type { Context } from '../context.js';
import { enclosingFor } from '../enclosing.js';
import { printHits } from '../hitPrinting.js';
import { findSymbol, orNoSymbol, REF_TARGET_FORMS, type SymbolPlaces } from '../references.js';
import { capNotice, commandLine } from '../searchNotes.js';
import { defineCommand } from '../spec.js';
import { DEFAULT_MAX, maxOption, PLAIN_SEARCH, searchRequest } from './searchOptions.js';

export const refsCommand = defineCommand({
  name: 'refs',
  summary: "a symbol's definition and every reference to it across the project, as grep hits",
  tool: [
    "A symbol's definition and every reference to it across the project, as PATH:NUMBER:LID|CONTENT hits",
    'grouped by file, each group under the definitions enclosing it (PATH:NUMBER:LID=CONTENT), then a count;',
    'hits count as shown. target: PATH:@NAME (a definition, as outline names it), PATH:LINE:LID with an',
    'optional :COL (byte column of the name), or a grep hit pasted whole. TypeScript and JavaScript:',
    "semantic, through TypeScript's language service and the nearest tsconfig.json or jsconfig.json",
    '(a shadowing local of the same name is not a reference; imports, re-exports, property accesses are).',
    'Other languages: identifiers of that name in files of the same language, outside strings and comments,',
    'by name and not by scope (the count says so). Files: those grep searches, hidden ones too. At most 200',
    'hits (max). Exit 1: no such definition; 2: a target that names no symbol.',
  ],
  description: [
    'Finds the symbol TARGET names and prints its definition and every reference to it across the ' +
      'project (the files rt grep --hidden searches under the root, that hold its name as a word), each line as ' +
      'a hit PATH:NUMBER:LID|CONTENT with the LID rt open shows, grouped by file, each group under the ' +
      'first line of the definitions that enclose it (PATH:NUMBER:LID=CONTENT, as rt grep -p prints ' +
      'them); then a count: "N references on M lines in K files". The lines printed count as shown.',
    'TARGET is PATH:@NAME (a definition of PATH, as rt outline and rt open PATH:@NAME name it: its name ' +
      'on its first line), PATH:LINE:LID (the name a definition starting on that line declares, or the ' +
      'one name of the line), PATH:LINE:LID:COL (the name at that byte column, counted from 1 as ' +
      "ripgrep's --column counts), or a grep hit pasted whole (PATH:LINE:LID|CONTENT). The LID must be " +
      'at LINE, as for an edit (exit 3 otherwise).',
    "TypeScript and JavaScript files are read by TypeScript's own language service (the TypeScript rt " +
      'ships), with the compiler options of the tsconfig.json (else jsconfig.json) nearest TARGET, or ' +
      'modern defaults when there is none: the references are semantic. A local of the same name that ' +
      'shadows the symbol is not one of them; imports, re-exports and property accesses are, in ' +
      'TypeScript, TSX and JavaScript files alike; so are the importers of a CommonJS export ' +
      '(module.exports = { NAME }, exports.NAME = ...), which TypeScript finds only from each of them: ' +
      'rt asks it from the spellings of the name, up to 200, in the files that name the exporting ' +
      'module (stderr says when more were left). ' +
      'No standard library is read: a name the project ' +
      'does not declare has no references. Ignored files are outside the project, as git and ripgrep ' +
      'see it: one is read only when TypeScript reaches it through the imports of the files it reads, ' +
      'and its references, as those in node_modules, are not printed: stderr says how many and where ' +
      '(PATH:LINE), and rt rename refuses them.',
    'In other languages (Python, Go, Rust, Java, C, C++, C#, Ruby, PHP, Bash), the references are the ' +
      "identifiers spelling the name in files of TARGET's language, outside strings and comments: by " +
      'name and not by scope (two unrelated symbols of one name are one), and the count says so.',
    'At most 200 hits are printed (--max N), then how many more and the command that shows them. With ' +
      '--json: {"command": "refs", "name", "language", "by": "semantic" or "name", "references", "lines", ' +
      '"files", "definitions": [{"path", "n"}], "hits": [...] (each as grep gives a hit), "more"}.',
  ],
  args: [
    {
      name: 'target',
      summary: `the symbol: ${REF_TARGET_FORMS}`,
      required: true,
      complete: 'target',
    },
  ],
  options: [
    {
      long: 'max',
      value: 'N',
      kind: 'count',
      least: 1,
      counting: 'hits',
      summary: 'print at most N hits (default 200)',
    },
  ],
  examples: [
    { command: 'rt refs src/cart.ts:@total', explains: 'every reference to the function total of src/cart.ts' },
    {
      command: 'rt refs src/cart.ts:41:kq3f:12',
      explains: 'every reference to the symbol whose name is at byte 12 of line 41',
    },
  ],
  exits: [
    [0, 'the references were printed'],
    [1, 'no definition has that NAME, or nothing is there to refer to'],
    [2, 'bad usage, a language rt cannot follow, or a line naming no one symbol (add :COL)'],
    [3, 'the LID is not (or no longer) at LINE'],
    [4, 'the file is missing, binary, unreadable or outside the root'],
  ],
  readsStdin: false,
  run(ctx, args, options) {
    return orNoSymbol(ctx, 'refs', async () =>
      printRefs(ctx, await findSymbol(ctx, args[0]!, 'refs'), options.max ?? DEFAULT_MAX, args[0]!),
    );
  },
});

/** The words of a count of references ("by name" for the languages read by name). */
export function referenceCount(found: SymbolPlaces): {
  references: number;
  lines: number;
  files: number;
  text: string;
} {
  const references = found.files.reduce((n, f) => n + f.places.length, 0);
  const lines = found.files.reduce((n, f) => n + f.rows.size, 0);
  const files = found.files.length;
  const many = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
  const how =
    found.by === 'semantic'
      ? " (TypeScript's language service)"
      : ` (by name, not by scope: ${found.language} identifiers spelling ${found.name})`;
  return {
    references,
    lines,
    files,
    text: `${many(references, 'reference')} on ${many(lines, 'line')} in ${many(files, 'file')}${how}`,
  };
}

async function printRefs(ctx: Context, found: SymbolPlaces, max: number, arg: string): Promise<number> {
  const names = [...new Set(found.files.flatMap((f) => f.places.map((p) => p.text)))];
  const request = searchRequest('grep', [], {
    ...PLAIN_SEARCH,
    regexp: names.map((n) => escapeRegExp(n)),
    word: !names.some((n) => n.startsWith('#')),
    function: true,
    max,
  });
  const files = found.files.map((f) => f.file);
  const { shown, shownHits, moreHits, moreFiles } = capHits(
    files,
    found.files.map((f) => [...f.rows.keys()].sort((a, b) => a - b)),
    () => undefined,
    maxOption({ max }),
  );
  const enclosing = await enclosingFor(
    ctx,
    shown.map((s) => s.file),
    { function: true },
  );
  const hits = printHits(ctx, shown, {
    query: request.query,
    matcher: request.matcher!,
    ripgrep: ripgrepCommand(request.query, [], ['.']),
    prefixPath: true,
    enclosing,
  });
  const count = referenceCount(found);
  const again = (n: number) => commandLine('refs', ['--max', String(n)], [arg]);
  // The count, then the cap's line last, as grep ends with it (an MCP client reads it in its own words).
  ctx.out(`${count.text}\n`);
  if (moreHits) ctx.out(capNotice(['hit', 'hits'], moreHits, moreFiles, again(shownHits + moreHits), ''));
  if (found.unparsed?.length)
    ctx.warn(
      `${found.unparsed.length} file${found.unparsed.length === 1 ? '' : 's'} holding ${found.name} could not be ` +
        `parsed (too big or too slow), so their references are not listed: ${found.unparsed.slice(0, 10).join(', ')}`,
    );
  if (found.importersCut)
    ctx.warn(
      `${found.name} is a CommonJS export: its importers were looked for at ${found.importersCut} of its ` +
        `spellings in files naming its module, and more were left, so some may be missing: ` +
        `rt grep -w ${found.name} shows every spelling`,
    );
  if (found.unlisted.length) {
    const n = found.unlisted.length;
    ctx.warn(`${n} more in files rt grep does not search (ignored, or node_modules), not shown:`);
    for (const at of found.unlisted.slice(0, 20)) ctx.warn(`  ${at}`);
    if (n > 20) ctx.warn(`  and ${n - 20} more`);
  }
  ctx.emit({
    command: 'refs',
    name: found.name,
    language: found.language,
    by: found.by,
    references: count.references,
    lines: count.lines,
    files: count.files,
    definitions: found.files.flatMap((f) =>
      f.places.filter((p) => p.definition).map((p) => ({ path: f.file.display, n: p.row + 1 })),
    ),
    hits,
    more: moreHits ? { hits: moreHits, files: moreFiles, command: again(shownHits + moreHits) } : null,
  });
  return found.files.length ? 0 : 1;
}
