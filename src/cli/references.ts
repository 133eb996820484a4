// What rt refs and rt rename share: the target read (PATH:@NAME, PATH:N:LID[:COL], or a grep hit
// pasted whole), the symbol found there, and its places across the project. TypeScript and
// JavaScript: TypeScript's language service (lang/typeScriptProject.ts, loaded here only). Other
// languages: the identifiers spelling the name (tree-sitter), by name and not by scope. Either way
// the files looked at are those rt grep --hidden searches under the root that hold the name as a word.

import path from 'node:path';
import { resolveAnchor } from '../model/anchor.js';
import { RtError, quotePath } from '../model/errors.js';
import { byteOccurrences, occurrences } from '../model/renaming.js';
import { parseTarget } from '../model/target.js';
import { PARSING, type LanguageId } from '../lang/languages.js';
import { sourceOf } from '../lang/source.js';
import { identifiersNamed, MAX_CHECK_BYTES, prepareChecker } from '../lang/syntax.js';
import type { RenameOutcome } from '../lang/typeScriptProject.js';
import type { Candidate } from '../search/candidates.js';
import type { FolderQuery } from '../search/engine.js';
import { ripgrepCommand } from '../search/query.js';
import { searchPaths } from '../search/searchPaths.js';
import { openIndexed, retryOnChange } from '../store/indexedFile.js';
import { withFolderOf } from '../store/pinnedFolder.js';
import { confinedFiles } from '../store/projectFiles.js';
import { listedPath, resolveInRoot, type ResolvedPath } from '../store/root.js';
import { languageFor } from '../store/syntaxCheck.js';
import { namesNonFolder, readWhole } from '../store/userFiles.js';
import type { Context } from './context.js';
import { listOptions, PLAIN_SEARCH, searchRequest } from './commands/searchOptions.js';
import { definitionsNamed, definitionsOf, errorsNote, lookByLines, outlineOfFile } from './symbols.js';

/** The languages TypeScript's language service reads. */
const SEMANTIC: ReadonlySet<LanguageId> = new Set(['typescript', 'tsx', 'javascript']);

/** Keywords that declare the name after them, across rt's languages. */
const DECLARING = new Set([
  ...['function', 'class', 'interface', 'type', 'enum', 'const', 'let', 'var', 'def', 'func', 'fn', 'struct'],
  ...['trait', 'module', 'namespace'],
]);

/** A place of the symbol in a file: 0-based row, UTF-16 column of the row as decoded, the text there. */
export interface SymbolPlace {
  readonly row: number;
  readonly column: number;
  readonly text: string;
  readonly definition: boolean;
  /** By name: a member's name, or one standing in a type's body (see identifiers.ts). */
  readonly member?: true;
}

export interface PlacedFile {
  readonly file: Candidate;
  readonly places: SymbolPlace[];
  /** Each row with places, decoded as it was read (see renaming.ts). */
  readonly rows: Map<number, string>;
}

/** The symbol a target names and where it stands across the project. */
export interface SymbolPlaces {
  readonly name: string;
  readonly language: LanguageId;
  /** `semantic`: TypeScript's language service; `name`: identifiers of that name (tree-sitter). */
  readonly by: 'semantic' | 'name';
  /** In the order rt grep lists files. */
  readonly files: PlacedFile[];
  /** The configuration file the language service took its options from. */
  readonly config?: string;
  /** TypeScript and JavaScript: the spellings of a CommonJS export's name asked for importers, if more were left. */
  readonly importersCut?: number;
  /** Places ("PATH:LINE") in files rt grep --hidden does not search (ignored, node_modules): never renamed. */
  readonly unlisted: readonly string[];
  /** The target: its file, row and column. */
  readonly target: { readonly abs: string; readonly display: string; readonly row: number; readonly column: number };
  /**
   * TypeScript and JavaScript: the places renaming the symbol changes, or why it may not be
   * renamed; `also`: files to read with the program's, where a declaration of the new name may be.
   */
  readonly rename?: (newName: string, also?: readonly string[]) => RenameOutcome;
  /** TypeScript and JavaScript: a global of the program's scripts (see isGlobal). */
  readonly global?: boolean;
  /** Files that hold the name but could not be parsed (too big, too slow): by name only. */
  readonly unparsed?: readonly string[];
  /** The digest of each file's bytes as its places were found (see projectFiles.ts). */
  readonly digests: ReadonlyMap<string, string>;
  /**
   * The files that held the name when its places were looked for (absolute paths); undefined when
   * the symbol is a local, which no other file can name.
   */
  readonly searched?: ReadonlySet<string>;
  /** A row of a file as it was read (BOM gone, decoded); undefined past the end. */
  readonly readRow?: (abs: string, row: number) => string | undefined;
}

/** The target's file, and where in it: a definition's name, or a line (with a column) named by number and LID. */
interface Position {
  readonly file: ResolvedPath;
  readonly language: LanguageId;
  readonly row: number;
  readonly column: number;
  readonly name: string;
}

/** No such definition, or nothing there to refer to: exit 1 (as nothing found), the message and hints on stderr. */
export class NoSymbol extends Error {
  constructor(
    message: string,
    readonly hints: readonly string[],
  ) {
    super(message);
  }
}

/** Runs `command`; a NoSymbol is said on stderr (and as --json's {"command", "found": false}) with exit 1. */
export async function orNoSymbol(ctx: Context, command: string, run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof NoSymbol)) throw error;
    ctx.emit({ command, found: false, message: error.message });
    ctx.warn(error.message);
    for (const hint of error.hints) ctx.warn(hint);
    return 1;
  }
}

/** The forms a target takes, as messages give them. */
export const REF_TARGET_FORMS = 'PATH:@NAME, PATH:LINE:LID, PATH:LINE:LID:COL or a grep hit';

/** Reads the target and finds the symbol's places. */
export async function findSymbol(
  ctx: Context,
  arg: string,
  command: 'refs' | 'rename',
  /** Called with the name and its language once the target is read, before the project is searched. */
  named?: (name: string, language: LanguageId) => void,
): Promise<SymbolPlaces> {
  const position = await targetPosition(ctx, arg, command);
  const { file, language, name } = position;
  named?.(name, language);
  const listed = await filesHolding(ctx, name, language, file);
  const reader = confinedFiles(ctx.root.dir);
  const texts = new Map<string, string | undefined>();
  const read = (abs: string) => {
    if (!texts.has(abs)) {
      const bytes = reader.bytes(abs);
      texts.set(abs, bytes === undefined ? undefined : sourceOf(bytes).text);
    }
    return texts.get(abs);
  };
  const rows = new Map<string, string[]>();
  const rowsOf = (abs: string) => {
    if (!rows.has(abs)) rows.set(abs, read(abs)?.split('\n') ?? []);
    return rows.get(abs)!;
  };
  const target = { abs: file.abs, display: file.display, row: position.row, column: position.column };
  if (SEMANTIC.has(language)) {
    const { TypeScriptProject, isLocalName } = await import('../lang/typeScriptProject.js');
    // A local (in a function, or a module's unexported name) is the target file's alone.
    const text = read(file.abs) ?? '';
    const offset = text.split('\n').slice(0, position.row).join('\n').length + (position.row ? 1 : 0);
    const local = isLocalName(file.abs, text, offset + position.column);
    const project = new TypeScriptProject(
      { ...reader, read },
      ctx.root.dir,
      file.abs,
      local ? [file.abs] : listed.map((c) => c.abs),
      (abs) => path.relative(ctx.cwd, abs) || abs,
      local,
    );
    // (A rename takes TypeScript's own places: the importers of a CommonJS export keep their name.)
    const refs = project.references(file.abs, position.row, position.column, command === 'refs');
    if (!refs?.length) throw nothingThere(name, file, position.row);
    const byFile = new Map<string, SymbolPlace[]>();
    for (const r of refs) {
      const text = rowsOf(r.abs)[r.row]?.slice(r.column, r.column + r.length) ?? name;
      if (!byFile.has(r.abs)) byFile.set(r.abs, []);
      byFile.get(r.abs)!.push({ row: r.row, column: r.column, text, definition: r.definition });
    }
    const { files, unlisted } = placed(listed, byFile, rowsOf, (abs) => path.relative(ctx.cwd, abs) || abs);
    return {
      name,
      language,
      by: 'semantic',
      files,
      unlisted,
      ...(project.importersCut ? { importersCut: project.importersCut } : {}),
      target,
      rename: (newName, also = []) => {
        project.addRoots(also);
        return project.rename(file.abs, position.row, position.column, newName);
      },
      global: !local && project.isGlobal(file.abs, position.row, position.column),
      readRow: (abs, row) => rowsOf(abs)[row],
      digests: reader.digests,
      ...(local ? {} : { searched: new Set(listed.map((c) => c.abs)) }),
      ...(project.config ? { config: project.config } : {}),
    };
  }
  const ready = await prepareChecker(language);
  if (!ready.ok) throw new RtError('access', `rt cannot read ${language} files: ${ready.reason}`, []);
  const byFile = new Map<string, SymbolPlace[]>();
  const unparsed: string[] = [];
  for (const c of listed) {
    const bytes = reader.bytes(c.abs);
    const found = bytes === undefined ? undefined : identifiersNamed(language, bytes, name);
    // (A file that holds the name but could not be read or parsed, too big or too slow, is said.)
    if (found === undefined) unparsed.push(c.display);
    if (!found?.length) continue;
    byFile.set(
      c.abs,
      // (By name, the one definition known is the target's.)
      found.map((p) => ({
        ...{ row: p.row, column: p.column, text: name },
        definition: c.abs === file.abs && p.row === position.row && p.column === position.column,
        ...(p.member || p.inType ? { member: true as const } : {}),
      })),
    );
  }
  const display = (abs: string) => path.relative(ctx.cwd, abs) || abs;
  const places = placed(listed, byFile, rowsOf, display);
  const searched = new Set(listed.map((c) => c.abs));
  return { name, language, by: 'name', ...places, target, digests: reader.digests, unparsed, searched };
}

/** The places found, by file in the listing's order, with their rows as read; those of unlisted files apart. */
function placed(
  listed: readonly Candidate[],
  byFile: ReadonlyMap<string, SymbolPlace[]>,
  rowsOf: (abs: string) => readonly string[],
  display: (abs: string) => string,
): { files: PlacedFile[]; unlisted: string[] } {
  const files: PlacedFile[] = [];
  const known = new Set(listed.map((c) => c.abs));
  const unlisted: string[] = [];
  for (const [abs, places] of byFile)
    if (!known.has(abs)) for (const p of places) unlisted.push(`${display(abs)}:${p.row + 1}`);
  for (const c of listed) {
    const places = byFile.get(c.abs);
    if (!places?.length) continue;
    places.sort((a, b) => a.row - b.row || a.column - b.column);
    const lines = rowsOf(c.abs);
    const rows = new Map<number, string>();
    for (const p of places) rows.set(p.row, lines[p.row] ?? '');
    files.push({ file: c, places, rows });
  }
  return { files, unlisted };
}

/**
 * The files rt grep --hidden searches under the root (listed as it lists them) that hold `name` as a word and
 * are in `language` (TypeScript's service: any of TypeScript, TSX, JavaScript); the target's first.
 */
export async function filesHolding(
  ctx: Context,
  name: string,
  language: LanguageId,
  target: Candidate,
): Promise<Candidate[]> {
  const options = {
    ...PLAIN_SEARCH,
    word: true,
    fixed: true,
    files: true,
    glob: [],
    // (Hidden files too, as rt grep --hidden lists them: .storybook/main.ts may import the symbol.)
    hidden: true,
    ignore: true,
  };
  const request = searchRequest('grep', [name, ctx.root.dir], options);
  const query: FolderQuery = { ...request.query, filesOnly: true, list: listOptions(options), globs: [] };
  const found = await searchPaths(ctx, query, request.matcher, ripgrepCommand(query, [], query.paths));
  const same = (l: LanguageId | undefined) =>
    l !== undefined && (l === language || (SEMANTIC.has(language) && SEMANTIC.has(l)));
  const out: Candidate[] = [];
  for (const [i, c] of found.files.entries()) {
    if ((found.hits[i]?.length ?? 0) === 0) continue;
    let resolved: ResolvedPath;
    try {
      resolved = listedPath(ctx.root, c.abs, c.display);
    } catch {
      continue;
    }
    if (same(languageFor(ctx.root.dir, resolved)))
      out.push({ abs: c.abs, display: path.relative(ctx.cwd, c.abs) || c.abs });
  }
  if (!out.some((c) => c.abs === target.abs)) out.unshift({ abs: target.abs, display: target.display });
  return out;
}

/** The file, row, column and name the target names. */
async function targetPosition(ctx: Context, arg: string, command: string): Promise<Position> {
  // A grep hit pasted whole: PATH:N:LID|CONTENT (or = and - lines).
  const hit = /^(.+?:\d+:[0-9a-z]{4,})[|=-]/su.exec(arg);
  let given = hit ? hit[1]! : arg;
  let col: number | undefined;
  const withCol = /^(.+:\d+:[0-9a-z]{4,}):(\d+)$/u.exec(given);
  if (withCol) [given, col] = [withCol[1]!, Number(withCol[2])];
  const target = parseTarget(given, (p) => namesNonFolder(path.resolve(ctx.cwd, p)));
  if (target.kind !== 'symbol' && target.kind !== 'both')
    throw new RtError('usage', `rt ${command} takes ${REF_TARGET_FORMS}: ${JSON.stringify(arg)} is none of them`, [
      `name a definition: rt ${command} src/app.ts:@total, or a place: rt ${command} src/app.ts:12:kq3f:9`,
    ]);
  const file = resolveInRoot(ctx.root, target.path);
  const language = languageFor(ctx.root.dir, file);
  if (language === undefined || PARSING[language].kind !== 'tree-sitter' || ['css', 'yaml'].includes(language))
    throw new RtError(
      'input',
      `rt finds references in source files of the languages it parses; ` +
        `${file.display} is ${language ?? 'none of them'}`,
      [`search it instead: rt grep -w NAME`],
    );
  const ready = await prepareChecker(language);
  if (!ready.ok) throw new RtError('access', `rt cannot read ${language} files: ${ready.reason}`, []);
  const bytes = readWhole(
    file,
    MAX_CHECK_BYTES,
    () => new RtError('input', `${file.display} is too large to find references in`, []),
  );
  if (target.kind === 'symbol') {
    const outlined = outlineOfFile(file, language);
    const found = definitionsNamed(outlined.definitions, target.name);
    const from = outlined.errorsFrom;
    if (found.length === 0)
      throw new NoSymbol(
        `no definition named ${target.name} in ${file.display}`,
        from === undefined
          ? [`see them all: rt outline ${quotePath(file.display)}`]
          : [errorsNote(file.display, from), lookByLines(file.display, target.name)],
      );
    if (found.length > 1)
      throw new RtError('usage', `${found.length} definitions in ${file.display} are named ${target.name}`, [
        ...found.slice(0, 10).map((d) => `  line ${d.line}: ${d.kind} ${d.qualifiedName}`),
        `name one by its line and LID (PATH:LINE:LID, as rt outline ${quotePath(file.display)} prints it)`,
      ]);
    const d = found[0]!;
    const place = identifiersNamed(language, bytes, d.name)?.find((p) => p.row === d.line - 1);
    if (!place) throw nothingThere(d.name, file, d.line - 1);
    return { file, language, row: place.row, column: place.column, name: d.name };
  }
  const row =
    retryOnChange(() =>
      withFolderOf(file, (pinned) => {
        const indexed = openIndexed(ctx.stateOf(pinned), pinned);
        return resolveAnchor(
          { kind: 'both', text: `${target.line}:${target.lid}`, line: target.line, lid: target.lid },
          {
            display: file.display,
            total: indexed.total,
            lineOf: (code) => indexed.lineOf(code),
            lidCodeAt: (i) => indexed.lids(i, i + 1)[0]!,
            retiredLine: (code) => indexed.retiredLine(code),
            shownAt: () => null,
            force: false,
          },
        );
      }),
    ) - 1;
  const text = sourceOf(bytes).text.split('\n')[row] ?? '';
  const raw = rawLine(bytes, row);
  const words = [...text.matchAll(/[\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}$#]+/gu)].filter((w) => !/^\d/.test(w[0]));
  /** The 1-based byte column of a word of the line: its rank among its occurrences, in the raw bytes. */
  const byteColumn = (w: RegExpMatchArray) =>
    byteOccurrences(raw, Buffer.from(w[0]))[occurrences(text, w[0]).indexOf(w.index!)]! + 1;
  let word: RegExpExecArray | RegExpMatchArray | undefined;
  if (col !== undefined) {
    // COL counts bytes of the line as it is from 1, as ripgrep's --column does (never of text decoded
    // again: a byte that is not UTF-8 is one byte there, three in U+FFFD).
    word = words.find((w) => {
      const at = byteColumn(w);
      return at <= col && col < at + Buffer.byteLength(w[0]);
    });
  } else {
    const definitions = definitionsOf(file, language).filter((d) => d.line === row + 1);
    const named = definitions.length ? words.find((w) => w[0] === definitions[0]!.name) : undefined;
    // Else the name a declaring keyword introduces (where the outline missed it), or the line's one word.
    const declared = words.filter((_w, i) => i > 0 && DECLARING.has(words[i - 1]![0]));
    word = named ?? (declared.length === 1 ? declared[0] : words.length === 1 ? words[0] : undefined);
  }
  if (!word) {
    const listed = words.slice(0, 8).map((w) => `${w[0]} (:${byteColumn(w)})`);
    throw new RtError(
      'usage',
      `${file.display}:${row + 1} names no one symbol${col !== undefined ? ` at column ${col}` : ''}`,
      [
        `add the column of the name: rt ${command} ${quotePath(`${target.path}:${target.line}:${target.lid}:COL`)}` +
          (listed.length ? `; on that line: ${listed.join(', ')}` : ''),
      ],
    );
  }
  const name = word[0].replace(/^#/, '');
  const column = word.index! + word[0].length - name.length;
  // The name must be an identifier there (not a word of a string or a comment).
  if (!identifiersNamed(language, bytes, name)?.some((p) => p.row === row && p.column === column)) {
    const hashed = identifiersNamed(language, bytes, `#${name}`)?.find((p) => p.row === row && p.column === column - 1);
    if (!hashed) throw nothingThere(name, file, row);
    return { file, language, row, column: hashed.column, name: `#${name}` };
  }
  return { file, language, row, column, name };
}

/** The bytes of line `row` (0-based) of `bytes` as they are, BOM and line ending left out. */
function rawLine(bytes: Buffer, row: number): Buffer {
  let at = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  for (let r = 0; r < row && at !== -1; r++) at = bytes.indexOf(0x0a, at) === -1 ? -1 : bytes.indexOf(0x0a, at) + 1;
  if (at === -1) return Buffer.alloc(0);
  const end = bytes.indexOf(0x0a, at);
  const line = bytes.subarray(at, end === -1 ? bytes.length : end);
  return line.at(-1) === 0x0d ? line.subarray(0, -1) : line;
}

function nothingThere(name: string, file: ResolvedPath, row: number): NoSymbol {
  return new NoSymbol(`${name} at ${file.display}:${row + 1} is no symbol rt can follow`, [
    `search for it by text instead: rt grep -w ${name}`,
  ]);
}
