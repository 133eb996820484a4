// rt rename: a symbol and its references renamed as one batch on the one write path (locks,
// syntax check, journal, one history step). The places come from rt refs' search (TypeScript's
// rename locations for TS/JS); each file is read again under its lock, and must be byte for byte
// the file analysed, else nothing is written.

import path from 'node:path';
import { RtError, quotePath, shellQuote } from '../../model/errors.js';
import { lidToString } from '../../model/lid.js';
import { lineContent } from '../../model/lines.js';
import type { PlannedChange } from '../../model/patch/plan.js';
import { isPlainIdentifier, occurrences, rankAt, renameInLine, type LinePlace } from '../../model/renaming.js';
import { isReservedWord } from '../../model/reservedWords.js';
import type { LanguageId } from '../../lang/languages.js';
import { identifiersNamed } from '../../lang/syntax.js';
import { writeChanges, type FileReport, type Planned } from '../../store/fileChanges.js';
import { confinedFiles, unchangedSince } from '../../store/projectFiles.js';
import type { Context } from '../context.js';
import { filesHolding, findSymbol, orNoSymbol, REF_TARGET_FORMS, type SymbolPlaces } from '../references.js';
import type { Candidate } from '../../search/candidates.js';
import { defineCommand, type OptionSpec } from '../spec.js';
import { printRewrite, type RewrittenLine } from '../rewriteReport.js';
import { writeFlags } from '../writing.js';
import { DRY_RUN, NO_CHECK } from './editOptions.js';

const RENAME_OPTIONS = [
  { ...DRY_RUN, summary: 'print each line that would change, before and after, and write nothing' },
  {
    long: 'expect',
    value: 'N',
    kind: 'count',
    // (Its own declaration is one: no rename changes nothing.)
    least: 1,
    counting: 'references',
    summary: 'refuse (exit 3, nothing written) unless exactly N places would be renamed',
  },
  {
    long: 'force',
    kind: 'switch',
    summary: 'rename even where NEWNAME already names something (by name), or is a global of the platform',
  },
  NO_CHECK,
] as const satisfies readonly OptionSpec[];

export const renameCommand = defineCommand({
  name: 'rename',
  summary: 'rename a symbol and every reference to it across the project, as one step undo takes back',
  tool: [
    'Rename the symbol target names, and every reference to it across the project, to newname, as one',
    'all-or-nothing write that undo takes back. target as in refs: PATH:@NAME, PATH:LINE:LID[:COL] or a grep',
    "hit. TypeScript and JavaScript: TypeScript's rename (imports and re-exports, shorthand properties",
    'becoming old: new, export specifiers old as new where the exported name must stay); refused (exit 3) when',
    'newname would collide with a declaration in a scope the symbol enters. Other languages: identifiers of',
    'that name outside strings and comments (by name, not scope); refused (exit 3) when newname is already',
    'an identifier in a touched file, unless force. dry_run: each changed line as PATH:NUMBER:LID-OLD and',
    'PATH:NUMBER:LID+NEW, then the count, writing nothing. expect: refuse unless exactly that many places.',
    'Then the changed lines as PATH:NUMBER:LID|CONTENT. Exit 2: newname is no identifier; 3: a collision,',
    'expect, or a line changed since read; 5: a file would break its syntax.',
  ],
  description: [
    'Renames the symbol TARGET names (as rt refs finds it: PATH:@NAME, PATH:LINE:LID, PATH:LINE:LID:COL ' +
      'or a grep hit) to NEWNAME, with every reference to it across the project, as one batch: all the ' +
      'files are written or none, the syntax check refuses (exit 5) a change that would leave a file ' +
      'with a syntax error it did not have (--no-check writes anyway), and rt undo takes the whole ' +
      'rename back. NEWNAME must be an identifier of the language and no word it reserves, a private ' +
      'name (#x) becoming one (#y) (exit 2 otherwise).',
    "TypeScript and JavaScript: the places are TypeScript's own rename locations, in the files rt grep " +
      '--hidden searches: declarations, references, imports and re-exports, with what keeps the code meaning what ' +
      'it did (a shorthand property { old } becomes { old: new }, an export specifier that must keep its ' +
      'exported name becomes { new as old }). The rename is refused (exit 3, nothing written) when NEWNAME ' +
      'would collide: when, in the program renamed, the references of the renamed symbol are not exactly ' +
      'its references before (one captured by another declaration of NEWNAME, or one of another symbol ' +
      'captured by it); also when a place lies in a file rt grep does not search (ignored, or in ' +
      'node_modules: outside the project, read only where an import of the files searched leads), which ' +
      'it would not write; the message names those places; and when NEWNAME is a ' +
      'global of the platform (Array, setTimeout, document...), unless --force.',
    'Other languages: every identifier spelling the name in files of the language, outside strings ' +
      'and comments, by name and not by scope (see rt refs). The rename is refused (exit 3) when NEWNAME ' +
      'is already an identifier in a file it would change (in Go, in any file of its package), unless ' +
      "--force; a member's name (a struct's field, a name after . as in x.Name) does not count when the " +
      'symbol renamed is nowhere a member (no place of it after . and none declared in a class, struct, ' +
      'impl, trait or interface).',
    'Each file is read again under its lock and must be the file analysed, byte for byte (else it ' +
      'changed since: exit 3, nothing written). Lines need not have been shown. --dry-run prints ' +
      'each line that would change as PATH:NUMBER:LID-CONTENT and ' +
      'PATH:NUMBER:LID+CONTENT, then "N references on M lines in K files", and writes nothing; ' +
      '--expect N refuses (exit 3) unless exactly N places would be renamed.',
    'After the write it prints "renamed OLD to NEW: N references on M lines in K files", then each ' +
      'changed line as PATH:NUMBER:LID|CONTENT with its new LID (these count as shown). With --json: ' +
      '{"command": "rename", "dryRun", "from", "to", "by", "references", "lines", "files": [{"path", ' +
      '"references", "lines": [...]}]}, each line as replace gives a line.',
  ],
  args: [
    { name: 'target', summary: `the symbol: ${REF_TARGET_FORMS}`, required: true, complete: 'target' },
    { name: 'newname', summary: 'its new name', required: true, complete: 'none' },
  ],
  options: RENAME_OPTIONS,
  examples: [
    { command: 'rt rename --dry-run src/cart.ts:@total subtotal', explains: 'preview renaming total to subtotal' },
    { command: 'rt rename --expect 7 src/cart.ts:@total subtotal', explains: 'rename it if there are 7 places' },
  ],
  exits: [
    [0, 'the symbol was renamed (or, with --dry-run, the change printed)'],
    [1, 'no definition has that NAME, or nothing is there to rename'],
    [2, 'bad usage, NEWNAME no identifier or a reserved word, or a line naming no one symbol (add :COL)'],
    [3, 'NEWNAME would collide, --expect counted otherwise, or a line changed since it was read: nothing written'],
    [4, 'a file is unwritable or outside the root, or RT_READONLY is set: nothing was written'],
    [5, 'a file would be left with a syntax error it did not have: nothing was written'],
  ],
  readsStdin: false,
  writes: true,
  run(ctx, args, options) {
    return orNoSymbol(ctx, 'rename', () => rename(ctx, args[0]!, args[1]!, options));
  },
});

/** A line to rename: its places, and how often the old name stood on it when they were found. */
interface RowPlan {
  readonly count: number;
  readonly places: LinePlace[];
}

async function rename(
  ctx: Context,
  target: string,
  newName: string,
  options: { dryRun: boolean; expect: number | undefined; force: boolean; check: boolean },
): Promise<number> {
  const found = await findSymbol(ctx, target, 'rename', (oldName, language) => refuseName(oldName, newName, language));
  const oldName = found.name;
  if (newName === oldName) throw new RtError('usage', `${oldName} is already named ${newName}`, []);
  if (found.by === 'semantic' && !options.force && platformGlobal(newName))
    throw new RtError(
      'stale',
      `${newName} is a global of the platform (Node or the browser): a use of it the rename reaches would ` +
        'be taken by the symbol renamed: nothing was written',
      ['rename anyway with --force'],
    );
  const plans =
    found.by === 'semantic'
      ? semanticPlans(ctx, found, newName, target, await globalsBeside(ctx, found, newName))
      : namePlans(ctx, found, newName, options.force, await samePackage(ctx, found, newName, options.force));
  const displayOf = new Map(found.files.map((f) => [f.file.abs, f.file.display]));
  const byFile = new Map<string, RewrittenLine[]>();
  const references = [...plans.values()].reduce(
    (n, rows) => n + [...rows.values()].reduce((m, r) => m + r.places.length, 0),
    0,
  );
  const again = (extra: readonly string[]) =>
    ['rt', 'rename', ...extra, ...(options.check ? [] : ['--no-check']), target, newName].map(shellQuote).join(' ');
  const flags = writeFlags(ctx, { dryRun: options.dryRun, diff: false, check: options.check });
  const changes = [...plans.keys()].map((abs) => ({
    kind: 'update' as const,
    line: 0,
    path: path.relative(ctx.cwd, abs) || abs,
    moveTo: undefined,
    hunks: [],
  }));
  // A file that came to hold the name while the references were looked for (a long analysis) was not
  // analysed: looked for again now, just before the locks, it refuses the rename rather than be left out.
  if (found.searched) {
    const now = await filesHolding(ctx, oldName, found.language, {
      abs: found.target.abs,
      display: found.target.display,
    });
    const come = now.filter((c) => !found.searched!.has(c.abs));
    if (come.length)
      throw new RtError(
        'stale',
        `${come.map((c) => c.display).join(', ')} ${come.length === 1 ? 'holds' : 'hold'} ${oldName} now, ` +
          'and did not when rt looked for its references: nothing was written',
        [`run the rename again: ${again([])}`],
      );
  }
  await writeChanges(
    ctx,
    changes,
    {
      flags,
      origin: { command: 'rename', patch: false },
      readOnly: ctx.settings.readOnly,
      rewrite: {
        plan(file, lines, index) {
          if (!unchangedSince(found.digests.get(file.abs), lines.bytes))
            throw new RtError(
              'stale',
              `${file.display} changed since rt found the references; run the rename again: nothing was written`,
              [`see its references now: rt refs ${shellQuote(target)}`],
            );
          const rows = plans.get(file.abs) ?? new Map<number, RowPlan>();
          const renamed: RewrittenLine[] = [];
          const out: PlannedChange[] = [];
          for (const [row, plan] of [...rows].sort((a, b) => a[0] - b[0])) {
            const before = row < lines.count ? lineContent(lines, row) : undefined;
            const after = before && renameInLine(before, oldName, plan.count, plan.places);
            if (!before || !after)
              throw new RtError(
                'stale',
                `${file.display}:${row + 1} changed since ${oldName} was found there: nothing was written`,
                [`see it, then rename again: rt open ${quotePath(`${file.display}:${row + 1}`)}`],
              );
            const lid = lidToString(index.lids[row]!);
            renamed.push({ n: row + 1, lid, before: Buffer.from(before), after });
            const anchor = { kind: 'both' as const, text: `${row + 1}:${lid}`, line: row + 1, lid };
            out.push({
              start: row,
              deleteCount: 1,
              insert: [after],
              hunk: { kind: 'range', op: 'edit', line: 0, from: anchor, to: anchor, rows: [after] },
              ownEnding: true,
            });
          }
          byFile.set(file.abs, renamed);
          return out;
        },
        verify() {
          if (options.expect !== undefined && references !== options.expect)
            throw new RtError(
              'stale',
              `${references} places would be renamed, not the ${options.expect} expected: nothing was written`,
              [`see them: ${again(['--dry-run'])}`, `rename them all: ${again(['--expect', String(references)])}`],
            );
        },
      },
    },
    {
      refusalFirst: ctx.json,
      report: (planned, reports) =>
        report(ctx, planned, reports, byFile, { found, newName, references, displayOf, plans }),
    },
  );
  return 0;
}

/** A few globals of the browser that Node lacks. */
const BROWSER_GLOBALS = new Set([
  ...['window', 'document', 'navigator', 'location', 'history', 'localStorage', 'sessionStorage', 'alert'],
  ...['confirm', 'prompt', 'self', 'parent', 'top', 'frames', 'screen'],
]);

/** Names a CommonJS module of Node's is given by its wrapper, which are on no global object. */
const MODULE_WRAPPER = new Set(['require', 'module', 'exports', '__dirname', '__filename']);

/** Whether `name` is a global of JavaScript's platforms (Node's own, and the browser's best known). */
function platformGlobal(name: string): boolean {
  return BROWSER_GLOBALS.has(name) || MODULE_WRAPPER.has(name) || Object.getOwnPropertyNames(globalThis).includes(name);
}

/** Refuses (exit 2) a new name that is no identifier of `language`, or a word it reserves; `#x` only to `#y`. */
function refuseName(oldName: string, newName: string, language: LanguageId): void {
  const hidden = oldName.startsWith('#');
  if (hidden !== newName.startsWith('#'))
    throw new RtError(
      'usage',
      hidden
        ? `${oldName} is a private name: it is renamed to a private name (#${newName.replace(/^#/, '')})`
        : `${JSON.stringify(newName)} is not an identifier in ${language}: ${oldName} is no private name`,
      [],
    );
  const bare = hidden ? newName.slice(1) : newName;
  // ($ makes names in JavaScript and TypeScript alone; TypeScript checks its own rules after.)
  if (!isPlainIdentifier(bare, ['javascript', 'typescript', 'tsx', 'php'].includes(language)))
    throw new RtError('usage', `${JSON.stringify(newName)} is not an identifier in ${language}`, [
      'a name is a letter or _ then letters, digits or _',
    ]);
  if (!hidden && isReservedWord(language, bare))
    throw new RtError('usage', `${newName} is a reserved word in ${language}: no symbol can be named so`, []);
}

/** The rows to rename in each file, from TypeScript's rename locations (refused when it refuses, or on a collision). */
function semanticPlans(
  ctx: Context,
  found: SymbolPlaces,
  newName: string,
  target: string,
  also: readonly string[],
): Map<string, Map<number, RowPlan>> {
  const outcome = found.rename!(newName, also);
  if (!outcome.ok) {
    const code = /not an identifier/.test(outcome.reason) ? 'usage' : 'stale';
    throw new RtError(code, `${found.name} cannot be renamed to ${newName}: ${outcome.reason}: nothing was written`, [
      `see its references: rt refs ${shellQuote(target)}`,
    ]);
  }
  const listed = new Map(found.files.map((f) => [f.file.abs, f]));
  const plans = new Map<string, Map<number, RowPlan>>();
  const unlisted = outcome.places.filter((p) => !listed.has(p.abs));
  if (unlisted.length) {
    const at = unlisted.map((p) => `${path.relative(ctx.cwd, p.abs) || p.abs}:${p.row + 1}`);
    throw new RtError(
      'stale',
      `renaming ${found.name} would change ${unlisted.length} place${unlisted.length === 1 ? '' : 's'} in files ` +
        `rt does not search (ignored, or node_modules), which it does not write: ${at.slice(0, 10).join(', ')}` +
        `${at.length > 10 ? `, and ${at.length - 10} more` : ''}: nothing was written`,
      ['rename them with your editor, or track those files'],
    );
  }
  for (const p of outcome.places) {
    const file = listed.get(p.abs)!;
    const row = file.rows.get(p.row) ?? found.readRow?.(p.abs, p.row) ?? '';
    addPlace(plans, p.abs, p.row, row, found.name, p.column, p.text);
  }
  return plans;
}

/**
 * A global of scripts (no modules) shares its scope with every script of the program: the files
 * that spell NEWNAME, for the collision check to read too (a script nothing else names may
 * declare it).
 */
async function globalsBeside(ctx: Context, found: SymbolPlaces, newName: string): Promise<string[]> {
  if (!found.global) return [];
  const { abs, display } = found.target;
  return (await filesHolding(ctx, newName, found.language, { abs, display })).map((c) => c.abs);
}

/** Go: the other files of the touched files' packages (their folders) that spell NEWNAME, to check as touched ones. */
async function samePackage(ctx: Context, found: SymbolPlaces, newName: string, force: boolean): Promise<Candidate[]> {
  if (force || found.language !== 'go') return [];
  const touched = new Set(found.files.map((f) => f.file.abs));
  const folders = new Set([...touched].map((abs) => path.dirname(abs)));
  const holding = await filesHolding(ctx, newName, 'go', { abs: found.target.abs, display: found.target.display });
  return holding.filter((c) => !touched.has(c.abs) && folders.has(path.dirname(c.abs)));
}

/**
 * The rows to rename in each file by name; refused where NEWNAME is already an identifier that
 * could clash, unless forced. A member's name (`x.Name`, a struct's field `Name string`) does not
 * clash with a symbol that is nowhere a member (a top-level function, a type, a variable), whose
 * scope is the file's, the package's or a function's; when any place of the symbol is a member's,
 * or stands in a type's body, any identifier of NEWNAME clashes.
 */
function namePlans(
  ctx: Context,
  found: SymbolPlaces,
  newName: string,
  force: boolean,
  alsoChecked: readonly Candidate[],
): Map<string, Map<number, RowPlan>> {
  const plans = new Map<string, Map<number, RowPlan>>();
  if (found.unparsed?.length)
    throw new RtError(
      'stale',
      `${found.unparsed.join(', ')} ${found.unparsed.length === 1 ? 'holds' : 'hold'} ${found.name} but could ` +
        'not be parsed (too big or too slow): its references would be left: nothing was written',
      [`see them by text: rt grep -w ${shellQuote(found.name)}`],
    );
  const reader = confinedFiles(ctx.root.dir);
  // (A member anywhere, `x.helper()` or a method's `def helper`, may be one a subclass or a call
  // through its type meets under NEWNAME.)
  const member = found.files.some((f) => f.places.some((p) => p.member));
  // (Go: a file of the same package shares its scope with the touched ones.)
  for (const file of force ? [] : [...found.files.map((f) => f.file), ...alsoChecked]) {
    const bytes = reader.bytes(file.abs);
    const taken = bytes && identifiersNamed(found.language, bytes, newName)?.filter((p) => member || !p.member);
    if (taken?.length)
      throw new RtError(
        'stale',
        `${newName} is already an identifier in ${file.display} (line ${taken[0]!.row + 1}), ` +
          `${alsoChecked.includes(file) ? 'in the package' : 'which'} the rename changes: renaming by name ` +
          'could merge two symbols: nothing was written',
        [`see it: rt grep -w ${shellQuote(newName)} ${quotePath(file.display)}`, 'rename anyway with --force'],
      );
  }
  for (const f of found.files) {
    for (const p of f.places)
      addPlace(plans, f.file.abs, p.row, f.rows.get(p.row) ?? '', found.name, p.column, newName);
  }
  return plans;
}

function addPlace(
  plans: Map<string, Map<number, RowPlan>>,
  abs: string,
  row: number,
  text: string,
  name: string,
  column: number,
  replacement: string,
): void {
  const rank = rankAt(text, name, column);
  if (rank === -1)
    throw new RtError('stale', `${abs}:${row + 1} no longer holds ${name} where it was found: nothing was written`, [
      'run the rename again',
    ]);
  if (!plans.has(abs)) plans.set(abs, new Map());
  const rows = plans.get(abs)!;
  if (!rows.has(row)) rows.set(row, { count: occurrences(text, name).length, places: [] });
  const places = rows.get(row)!.places;
  if (!places.some((p) => p.rank === rank)) places.push({ rank, text: replacement });
}

/** What a rename prints: a dry run's preview, or the changed lines with their new LIDs. */
function report(
  ctx: Context,
  planned: readonly Planned[],
  reports: readonly FileReport[] | undefined,
  byFile: ReadonlyMap<string, RewrittenLine[]>,
  about: {
    found: SymbolPlaces;
    newName: string;
    references: number;
    displayOf: ReadonlyMap<string, string>;
    plans: ReadonlyMap<string, ReadonlyMap<number, RowPlan>>;
  },
): void {
  const { found, newName } = about;
  const refsIn = (abs: string) => [...(about.plans.get(abs)?.values() ?? [])].reduce((n, r) => n + r.places.length, 0);
  const many = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
  const lines = [...byFile.values()].reduce((n, l) => n + l.length, 0);
  const summary =
    `${many(about.references, 'reference')} on ${many(lines, 'line')} in ${many(planned.length, 'file')}` +
    (found.by === 'name' ? ` (by name, not by scope)` : '');
  const json = printRewrite(ctx, planned, reports, {
    lines: (abs) => byFile.get(abs) ?? [],
    tally: (abs) => ({ references: refsIn(abs) }),
    summary,
    done: `renamed ${found.name} to ${newName}: ${summary}`,
    max: Number.POSITIVE_INFINITY,
  });
  ctx.emit({
    command: 'rename',
    dryRun: !reports,
    from: found.name,
    to: newName,
    by: found.by,
    references: about.references,
    lines,
    files: json,
  });
}
