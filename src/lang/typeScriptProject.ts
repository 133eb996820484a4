// The references and rename places of a TypeScript or JavaScript symbol, from TypeScript's own
// language service (the TypeScript rt ships, loaded only by rt refs and rt rename). The program
// takes the compiler options of the tsconfig.json (or jsconfig.json) nearest the target, and as
// its files the target's and the ones the caller lists (those that spell the name at all: no other
// can refer to it), with what they import; every file is read through `files`, which reads
// nothing outside the root. No standard library is read (rt ships TypeScript's compiler alone):
// the symbols of a project never resolve to it.

import path from 'node:path';
import type TS from 'typescript';
import { loadTypeScript } from './loadTypeScript.js';

type TypeScript = typeof import('typescript');

/** How the language service reads the project: nothing outside the root. */
export interface ProjectFiles {
  /** The text of `abs` as a parser reads it (BOM gone, CRLF as LF), or undefined: missing, binary, outside the root. */
  read(abs: string): string | undefined;
  fileExists(abs: string): boolean;
  directoryExists(abs: string): boolean;
  getDirectories(abs: string): string[];
}

/** A place in a file's parsed text: 0-based row, UTF-16 column, and its length. */
export interface SourcePlace {
  readonly abs: string;
  readonly row: number;
  readonly column: number;
  readonly length: number;
}

export interface Reference extends SourcePlace {
  /** Whether it declares the symbol (or an alias of it: an import). */
  readonly definition: boolean;
}

/** A place to rename and the text it becomes: the new name, with what keeps it meaning what it did (`old: new`). */
export interface RenamePlace extends SourcePlace {
  readonly text: string;
}

export type RenameOutcome =
  | { readonly ok: true; readonly places: readonly RenamePlace[] }
  | { readonly ok: false; readonly reason: string };

/** Why no language service: TypeScript could not be loaded. */
export class NoTypeScript extends Error {}

export class TypeScriptProject {
  private readonly ts: TypeScript;
  private readonly texts = new Map<string, string | undefined>();
  private readonly versions = new Map<string, number>();
  private readonly service: TS.LanguageService;
  /** The configuration file whose options the program takes, if any. */
  readonly config: string | undefined;

  constructor(
    private readonly files: ProjectFiles,
    root: string,
    target: string,
    private readonly rootFiles: readonly string[],
    /** How messages name a file. */
    private readonly display: (abs: string) => string = (abs) => abs,
    /** A local's program: its file alone, what it imports not read. */
    alone = false,
  ) {
    const ts = loadTypeScript();
    if (!ts) throw new NoTypeScript('TypeScript could not be loaded');
    this.ts = ts;
    const exists = (f: string) => files.fileExists(f);
    const dir = path.dirname(target);
    this.config = ts.findConfigFile(dir, exists, 'tsconfig.json') ?? ts.findConfigFile(dir, exists, 'jsconfig.json');
    const options = { ...this.optionsOf(this.config), ...OVERRIDES, ...(alone ? { noResolve: true } : {}) };
    const host: TS.LanguageServiceHost = {
      getCompilationSettings: () => options,
      getScriptFileNames: () => [...this.rootFiles, ...this.moreRoots],
      getScriptVersion: (f) => String(this.versions.get(f) ?? 0),
      getScriptSnapshot: (f) => {
        const text = this.text(f);
        return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
      },
      getCurrentDirectory: () => root,
      getDefaultLibFileName: () => path.join(root, 'node_modules', 'typescript', 'lib', 'lib.d.ts'),
      fileExists: exists,
      readFile: (f) => this.text(f),
      directoryExists: (d) => files.directoryExists(d),
      getDirectories: (d) => files.getDirectories(d),
      useCaseSensitiveFileNames: () => true,
    };
    this.service = ts.createLanguageService(host, ts.createDocumentRegistry(true, root));
  }

  private text(abs: string): string | undefined {
    if (!this.texts.has(abs)) this.texts.set(abs, this.files.read(abs));
    return this.texts.get(abs);
  }

  private optionsOf(config: string | undefined): TS.CompilerOptions {
    const ts = this.ts;
    if (config === undefined) return DEFAULTS;
    const read = ts.readConfigFile(config, (f) => this.files.read(f));
    if (read.error) return DEFAULTS;
    const parsed = ts.parseJsonConfigFileContent(
      read.config,
      {
        useCaseSensitiveFileNames: true,
        readDirectory: () => [],
        fileExists: (f) => this.files.fileExists(f),
        readFile: (f) => this.files.read(f),
      },
      path.dirname(config),
      undefined,
      config,
    );
    return parsed.options;
  }

  /** The offset of (row, column) in `abs`'s text; undefined past its end. */
  private offsetOf(abs: string, row: number, column: number): number | undefined {
    const text = this.text(abs);
    if (text === undefined) return undefined;
    let at = 0;
    for (let r = 0; r < row; r++) {
      const nl = text.indexOf('\n', at);
      if (nl === -1) return undefined;
      at = nl + 1;
    }
    return at + column;
  }

  private placeOf(abs: string, start: number, length: number): SourcePlace {
    const text = this.text(abs) ?? '';
    let row = 0;
    let lineStart = 0;
    for (let nl = text.indexOf('\n'); nl !== -1 && nl < start; nl = text.indexOf('\n', nl + 1)) {
      row++;
      lineStart = nl + 1;
    }
    return { abs, row, column: start - lineStart, length };
  }

  /** Roots added after the start (addRoots). */
  private readonly moreRoots: string[] = [];

  /** Adds `files` to the program's roots (those it has already are left). */
  addRoots(files: readonly string[]): void {
    const has = new Set([...this.rootFiles, ...this.moreRoots]);
    for (const f of files) if (!has.has(f)) this.moreRoots.push(f);
  }

  /**
   * Whether the name at (row, column) is a global of the program's scripts: declared at the top
   * level of a file that is no module, whose top-level names every other script shares.
   */
  isGlobal(abs: string, row: number, column: number): boolean {
    const ts = this.ts;
    const at = this.offsetOf(abs, row, column);
    const program = this.service.getProgram();
    const file = program?.getSourceFile(abs);
    if (at === undefined || !program || !file) return false;
    const symbol = program.getTypeChecker().getSymbolAtLocation(nodeAt(ts, file, at));
    const topLevel = (d: TS.Node) => {
      let n = d.parent;
      while (n && (ts.isVariableDeclarationList(n) || ts.isVariableStatement(n))) n = n.parent;
      return n !== undefined && ts.isSourceFile(n) && !ts.isExternalModule(n);
    };
    return (symbol?.declarations ?? []).some(topLevel);
  }

  /** The spellings the last references() asked for CommonJS importers if it left more, else 0 (see importersOf). */
  importersCut = 0;

  /**
   * The symbol's declarations and references, the target's included; undefined when nothing is
   * there to refer to. `importers`: with the CommonJS importers TypeScript does not reach from the
   * export (see importersOf).
   */
  references(abs: string, row: number, column: number, importers = false): Reference[] | undefined {
    const at = this.offsetOf(abs, row, column);
    if (at === undefined) return undefined;
    const found = this.service.findReferences(abs, at);
    if (!found?.length) return undefined;
    const seen = new Set<string>();
    const out: Array<{ key: string; place: SourcePlace }> = [];
    const add = (symbols: readonly TS.ReferencedSymbol[]) => {
      for (const symbol of symbols)
        for (const r of symbol.references) {
          const key = `${r.fileName}\0${r.textSpan.start}`;
          if (seen.has(key)) continue;
          seen.add(key);
          out.push({ key, place: this.placeOf(r.fileName, r.textSpan.start, r.textSpan.length) });
        }
    };
    add(found);
    // Each meaning of a merged symbol (a value and a type...) has its own references.
    for (const d of this.declarationsAt(abs, at))
      if (!seen.has(`${d.abs}\0${d.start}`)) add(this.service.findReferences(d.abs, d.start) ?? []);
    if (importers) this.importersCut = this.importersOf(abs, at, seen, add);
    // The definitions are the symbol's declarations, whichever place names it (an import, a call);
    // an alias's local name (`import { a as b }`, refs of b) has its own references, and its
    // declaration, the specifier, is theirs.
    const keys = (through: boolean) =>
      new Set(this.declarationsAt(abs, at, through).map((d) => `${d.abs}\0${d.start}`));
    const aliased = keys(true);
    const declared = out.some((r) => aliased.has(r.key)) ? aliased : keys(false);
    return out.map(({ key, place }) => ({ ...place, definition: declared.has(key) }));
  }

  /**
   * Adds the references of the symbol at `at` that only its importers lead to: TypeScript goes from
   * a CommonJS importer (`const { a } = require('./m')`, `m.a`, an ES import of a CommonJS module)
   * to the export, but not from a declaration exported as `module.exports = { a }` to its
   * importers. So when a reference found is such an export of the name from a JavaScript file (see
   * commonJsExport), the spellings of the name in the other files that no reference found yet,
   * and that name the exporting module (see moduleWords), are asked (IMPORTS_ASKED at most); those
   * whose references hold the export or a declaration bring theirs that spell the name, and the
   * files they reach are asked in turn. An importer reaching it through another module's
   * re-export, or naming the module otherwise (`require('.')`, a package's name) in a file no
   * other importer's references reach, is not looked for. The spellings asked when more were left
   * unasked, else 0.
   */
  private importersOf(
    abs: string,
    at: number,
    seen: Set<string>,
    add: (symbols: readonly TS.ReferencedSymbol[]) => void,
  ): number {
    const ts = this.ts;
    const program = this.service.getProgram();
    const file = program?.getSourceFile(abs);
    const node = file && nodeAt(ts, file, at);
    if (!program || !node || !ts.isIdentifier(node)) return 0;
    const name = node.text;
    const exports = new Set<string>();
    for (const key of seen) {
      const [fileName, start] = splitKey(key);
      const source = JAVASCRIPT.test(fileName) ? program.getSourceFile(fileName) : undefined;
      const id = source && nodeAt(ts, source, start);
      if (!id || !ts.isIdentifier(id) || id.text !== name) continue;
      const exported = commonJsExport(ts, id);
      if (exported) exports.add(`${fileName}\0${exported.getStart(source)}`);
    }
    if (exports.size === 0) return 0;
    const leads = new Set([...exports, ...this.declarationsAt(abs, at, true).map((d) => `${d.abs}\0${d.start}`)]);
    const exporters = new Set([...exports].map((key) => splitKey(key)[0]));
    const modules = [...exporters].flatMap(moduleWords);
    // (Defensive: an importer accepted names the export itself, so its references spell the name.)
    const spells = (r: TS.ReferenceEntry) =>
      program.getSourceFile(r.fileName)?.text.slice(r.textSpan.start, r.textSpan.start + r.textSpan.length) === name;
    let asked = 0;
    // Files naming the module first; then any file an importer's references reached, whatever it
    // names (`require('.')` of an index file, a package's main): its other spellings are asked too.
    const scanned = new Set<string>();
    const queue = [...this.rootFiles, ...this.moreRoots].filter((f) => {
      const text = exporters.has(f) ? undefined : program.getSourceFile(f)?.text;
      return text !== undefined && modules.some((word) => text.includes(word));
    });
    for (let q = 0; q < queue.length; q++) {
      const other = queue[q]!;
      if (scanned.has(other)) continue;
      scanned.add(other);
      const source = program.getSourceFile(other);
      for (const m of source?.text.matchAll(wordPattern(name)) ?? []) {
        // Only the name's own tokens: not its spelling inside a string or a comment.
        const token = nodeAt(ts, source!, m.index);
        if (seen.has(`${other}\0${m.index}`) || !ts.isIdentifier(token) || token.getStart(source) !== m.index) continue;
        if (++asked > IMPORTS_ASKED) return IMPORTS_ASKED;
        const found = this.service.findReferences(other, m.index) ?? [];
        if (!found.some((s) => s.references.some((r) => leads.has(`${r.fileName}\0${r.textSpan.start}`)))) continue;
        const named = found.map((s) => ({ ...s, references: s.references.filter(spells) }));
        add(named);
        for (const r of named.flatMap((s) => s.references))
          if (!scanned.has(r.fileName) && !exporters.has(r.fileName)) queue.push(r.fileName);
      }
    }
    return 0;
  }

  /**
   * The places renaming the symbol at (row, column) to `newName` changes, or why it may not be
   * renamed: TypeScript refuses it, or the new name would collide (see collision).
   */
  rename(abs: string, row: number, column: number, newName: string): RenameOutcome {
    const ts = this.ts;
    if (!isIdentifierText(ts, newName)) return { ok: false, reason: `${newName} is not an identifier` };
    const at = this.offsetOf(abs, row, column);
    if (at === undefined) return { ok: false, reason: 'nothing is there to rename' };
    const info = this.service.getRenameInfo(abs, at, { providePrefixAndSuffixTextForRename: true });
    if (!info.canRename) return { ok: false, reason: info.localizedErrorMessage };
    const locations = this.service.findRenameLocations(abs, at, false, false, {
      providePrefixAndSuffixTextForRename: true,
    });
    if (!locations?.length) return { ok: false, reason: 'TypeScript finds nothing to rename there' };
    const left = this.leftByRename(abs, at, locations);
    if (left)
      return {
        ok: false,
        reason:
          `TypeScript's rename from this declaration file would leave ${left}, which a use of it ` +
          'references (a .d.ts exporting it with no export keyword); write export before it first',
      };
    const collision = this.collision(abs, at, info.displayName, newName, locations);
    if (collision) return { ok: false, reason: collision };
    return {
      ok: true,
      places: locations.map((l) => ({
        ...this.placeOf(l.fileName, l.textSpan.start, l.textSpan.length),
        text: `${l.prefixText ?? ''}${newName}${l.suffixText ?? ''}`,
      })),
    };
  }

  /**
   * Why renaming would change what a name means, or undefined: in the program with the places
   * renamed, the references of the renamed symbol that spell the new name must be exactly the
   * places renamed (one lost went to another declaration of the new name; one gained came from
   * one). References that keep the old name (an export kept as `new as old`) are not asked
   * about. The program is then put back as it was read.
   */
  private collision(
    abs: string,
    at: number,
    oldName: string,
    newName: string,
    locations: readonly TS.RenameLocation[],
  ): string | undefined {
    const byFile = new Map<string, TS.RenameLocation[]>();
    // (TypeScript may list one place twice: an import of a function exported twice.)
    const seen = new Set<string>();
    for (const l of locations) {
      const key = `${l.fileName}\0${l.textSpan.start}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (!byFile.has(l.fileName)) byFile.set(l.fileName, []);
      byFile.get(l.fileName)!.push(l);
    }
    // A declaration of the new name in a scope that declares the symbol is a clash TypeScript
    // reports (a merge, a duplicate) rather than a change of what a name resolves to.
    const clash = this.declaredBeside(abs, at, newName) ?? this.declaredInScripts(newName);
    if (clash) return `${newName} is already declared where ${oldName} is (${clash})`;
    // Every meaning of a merged symbol (a value and a type, an interface and a namespace) is
    // asked about after: TypeScript gives each its own references.
    const declarations = this.declarationsAt(abs, at);
    const moved = new Map<string, number>();
    const expected = new Set<string>();
    let target = at;
    const saved = new Map<string, string | undefined>();
    for (const [file, places] of byFile) {
      const text = this.text(file) ?? '';
      saved.set(file, text);
      places.sort((a, b) => a.textSpan.start - b.textSpan.start);
      let out = '';
      let from = 0;
      for (const p of places) {
        out += text.slice(from, p.textSpan.start);
        const name = out.length + (p.prefixText?.length ?? 0);
        out += `${p.prefixText ?? ''}${newName}${p.suffixText ?? ''}`;
        from = p.textSpan.start + p.textSpan.length;
        expected.add(`${file}\0${name}`);
        moved.set(`${file}\0${p.textSpan.start}`, name);
        if (file === abs && at >= p.textSpan.start && at <= from) target = name;
      }
      out += text.slice(from);
      this.texts.set(file, out);
      this.versions.set(file, (this.versions.get(file) ?? 0) + 1);
    }
    try {
      const after = this.namedReferences(abs, target, newName);
      for (const d of declarations) {
        const to = moved.get(`${d.abs}\0${d.start}`);
        if (to !== undefined) for (const k of this.namedReferences(d.abs, to, newName)) after.add(k);
      }
      const lost = [...expected].filter((k) => !after.has(k));
      const gained = [...after].filter((k) => !expected.has(k));
      const where = (k: string) => {
        const [file, offset] = splitKey(k);
        return `${this.display(file)}:${this.placeOf(file, offset, 0).row + 1}`;
      };
      if (lost.length === 0 && gained.length === 0) return this.unexported([...byFile.keys()], newName);
      if (gained.length)
        return `${newName} already names something the renamed ${oldName} would capture (${where(gained[0]!)})`;
      return `${newName} would be taken by another declaration where ${oldName} is used (${where(lost[0]!)})`;
    } finally {
      for (const [file, text] of saved) {
        this.texts.set(file, text);
        this.versions.set(file, (this.versions.get(file) ?? 0) + 1);
      }
    }
  }

  /**
   * In a declaration file, a reference the rename from the declaration leaves out, and its own
   * references do not list, as "PATH:LINE", found from the first use of the symbol elsewhere: a
   * .d.ts module exports its declarations with no `export` all the same, but TypeScript's
   * references and rename from such a declaration list it alone (from a use they list every
   * place). Undefined when none is left, or no use is found.
   */
  private leftByRename(abs: string, at: number, locations: readonly TS.RenameLocation[]): string | undefined {
    const program = this.service.getProgram();
    const file = program?.getSourceFile(abs);
    if (!program || !file?.isDeclarationFile) return undefined;
    const node = nodeAt(this.ts, file, at);
    if (!this.ts.isIdentifier(node)) return undefined;
    const start = node.getStart(file);
    // (What the declaration's own references list is left knowingly: an alias's uses, `import { a as b }`.)
    const known = (this.service.findReferences(abs, start) ?? []).flatMap((r) => r.references);
    const keyOf = (fileName: string, at: number) => `${fileName}\0${at}`;
    const renamed = new Set([
      ...locations.map((l) => keyOf(l.fileName, l.textSpan.start)),
      ...known.map((r) => keyOf(r.fileName, r.textSpan.start)),
    ]);
    // (Each use asked costs a search of the program: the first few spellings of the name are enough.)
    let asked = 0;
    for (const other of [...this.rootFiles, ...this.moreRoots]) {
      const text = other === abs ? undefined : program.getSourceFile(other)?.text;
      for (const m of text?.matchAll(wordPattern(node.text)) ?? []) {
        if (++asked > USES_ASKED) return undefined;
        const found = (this.service.findReferences(other, m.index) ?? []).flatMap((r) => r.references);
        if (!found.some((r) => r.fileName === abs && r.textSpan.start === start)) continue;
        const missed = found.find((r) => !renamed.has(keyOf(r.fileName, r.textSpan.start)));
        return (
          missed &&
          `${this.display(missed.fileName)}:${this.placeOf(missed.fileName, missed.textSpan.start, 0).row + 1}`
        );
      }
    }
    return undefined;
  }

  /**
   * Where the names of the declarations of the symbol at `at` start (each meaning of a merged one);
   * `throughAlias`: an import's or export's, those of the symbol it names.
   */
  private declarationsAt(abs: string, at: number, throughAlias = false): Array<{ abs: string; start: number }> {
    const ts = this.ts;
    const program = this.service.getProgram();
    const file = program?.getSourceFile(abs);
    if (!program || !file) return [];
    const checker = program.getTypeChecker();
    let symbol = checker.getSymbolAtLocation(nodeAt(ts, file, at));
    if (symbol && throughAlias && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
    return (symbol?.declarations ?? []).flatMap((d) => {
      const name = ts.getNameOfDeclaration(d);
      return name ? [{ abs: d.getSourceFile().fileName, start: name.getStart(d.getSourceFile()) }] : [];
    });
  }

  /**
   * Where a script added to the roots (addRoots: those a global's rename reads for the new name)
   * declares `name` at its top level, which every script shares: TypeScript reports the clash of
   * two such declarations but keeps them two symbols, so the references do not show it.
   */
  private declaredInScripts(name: string): string | undefined {
    const ts = this.ts;
    const program = this.service.getProgram();
    for (const abs of this.moreRoots) {
      const file = program?.getSourceFile(abs);
      const found = file && !ts.isExternalModule(file) ? declarationNamed(ts, file, name) : undefined;
      if (found) return `${this.display(abs)}:${this.placeOf(abs, found.getStart(file), 0).row + 1}`;
    }
    return undefined;
  }

  /**
   * Where `name` is declared in a scope that declares the symbol at `at` (its own declarations'
   * scopes: a block, a function with its parameters, a module, a class's members...), as
   * "PATH:LINE"; undefined when nowhere.
   */
  private declaredBeside(abs: string, at: number, name: string): string | undefined {
    const ts = this.ts;
    const program = this.service.getProgram();
    for (const d of this.service.getDefinitionAtPosition(abs, at) ?? []) {
      const file = program?.getSourceFile(d.fileName);
      if (!file || this.text(d.fileName) === undefined) continue;
      const scope = scopeOf(ts, nodeAt(ts, file, d.textSpan.start));
      const found = scope && declarationNamed(ts, scope, name);
      if (found) return `${this.display(d.fileName)}:${this.placeOf(d.fileName, found.getStart(file), 0).row + 1}`;
    }
    return undefined;
  }

  /**
   * An import or re-export in `files` that would name `name` from a module of the program that
   * exports no such name, as "PATH:LINE: TS2614 ..."; undefined when none. TypeScript resolves such
   * an import to the module's local of that name (error recovery), so its references look
   * right: an export kept as `new as old` leaves `import { new as x }` broken. (Comparing what
   * TypeScript reports about the files renamed, before and after, would find it too, at the
   * cost of type-checking them twice: 90 s on babel for a rename of 31 files.)
   */
  private unexported(files: readonly string[], name: string): string | undefined {
    const ts = this.ts;
    const program = this.service.getProgram();
    const checker = program?.getTypeChecker();
    if (!program || !checker) return undefined;
    for (const abs of files) {
      const file = program.getSourceFile(abs);
      for (const statement of file?.statements ?? []) {
        const from = (statement as { moduleSpecifier?: TS.Expression }).moduleSpecifier;
        const named = ts.isImportDeclaration(statement)
          ? statement.importClause?.namedBindings
          : ts.isExportDeclaration(statement)
            ? statement.exportClause
            : undefined;
        if (!file || !from || !named || (!ts.isNamedImports(named) && !ts.isNamedExports(named))) continue;
        const module = checker.getSymbolAtLocation(from);
        if (!module) continue;
        const exported = new Set(checker.getExportsOfModule(module).map((e) => e.name));
        if (module.exports?.has('export=' as TS.__String)) continue;
        for (const s of named.elements) {
          const imported = s.propertyName ?? s.name;
          if (!ts.isIdentifier(imported) || imported.text !== name || exported.has(name)) continue;
          const line = this.placeOf(abs, imported.getStart(file), 0).row + 1;
          const spec = ts.isStringLiteral(from) ? `"${from.text}"` : from.getText(file);
          return (
            `an import would name what its module does not export: ` +
            `${this.display(abs)}:${line}: TS2614 Module '${spec}' has no exported member '${name}'`
          );
        }
      }
    }
    return undefined;
  }

  /** The references ("file\0offset") of the symbol at `at` that spell `name` (an alias named otherwise is not one). */
  private namedReferences(abs: string, at: number, name: string): Set<string> {
    const out = new Set<string>();
    for (const symbol of this.service.findReferences(abs, at) ?? [])
      for (const r of symbol.references) {
        const text = this.text(r.fileName) ?? '';
        if (text.slice(r.textSpan.start, r.textSpan.start + r.textSpan.length) === name)
          out.add(`${r.fileName}\0${r.textSpan.start}`);
      }
    return out;
  }
}

/**
 * Whether the name at `at` of `text` (the file `abs`, parsed alone) is a local that no other file
 * can name: declared in a function or a block, or at the top of a module without being exported.
 * Read from the syntax alone, conservatively: a member, a property, an import or an export, a
 * script's top level, or a name declared nowhere around it are not local.
 */
export function isLocalName(abs: string, text: string, at: number): boolean {
  const ts = loadTypeScript();
  if (!ts) return false;
  const file = ts.createSourceFile(abs, text, ts.ScriptTarget.Latest, true);
  // (A module's .d.ts exports each of its top-level declarations, `export` or not.)
  if (file.isDeclarationFile) return false;
  const node = nodeAt(ts, file, at);
  if (!ts.isIdentifier(node) || node.getStart(file) > at) return false;
  const parent = node.parent;
  const member =
    ((ts.isPropertyAccessExpression(parent) || ts.isPropertyAssignment(parent)) && parent.name === node) ||
    (ts.isBindingElement(parent) && parent.propertyName === node) ||
    (ts.isQualifiedName(parent) && parent.right === node) ||
    ts.isShorthandPropertyAssignment(parent) ||
    ts.isImportSpecifier(parent) ||
    ts.isExportSpecifier(parent) ||
    ts.isImportClause(parent) ||
    ts.isNamespaceImport(parent) ||
    ts.isClassElement(parent) ||
    ts.isTypeElement(parent) ||
    ts.isEnumMember(parent) ||
    ts.isJsxAttribute(parent) ||
    ts.isModuleDeclaration(parent);
  if (member) return false;
  const name = node.text;
  for (let scope: TS.Node | undefined = parent; scope; scope = scope.parent) {
    if (!isScope(ts, scope)) continue;
    const declared = declarationNamed(ts, scope, name);
    if (!declared) continue;
    const declaration = declared.parent;
    // A constructor's `public x` is a member of its class; a `var` in a block is its function's or module's.
    if (ts.isParameter(declaration) && ts.isParameterPropertyDeclaration(declaration, declaration.parent)) return false;
    const hoisted =
      ts.isVariableDeclaration(declaration) &&
      ts.isVariableDeclarationList(declaration.parent) &&
      (declaration.parent.flags & (ts.NodeFlags.Let | ts.NodeFlags.Const)) === 0;
    if (hoisted && !ts.isFunctionLike(scope) && !ts.isSourceFile(scope)) return false;
    if (!ts.isSourceFile(scope))
      return ts.isFunctionLike(scope) ||
        ts.isBlock(scope) ||
        ts.isCaseBlock(scope) ||
        ts.isCatchClause(scope) ||
        ts.isForStatement(scope) ||
        ts.isForInStatement(scope) ||
        ts.isForOfStatement(scope)
        ? !ts.isClassElement(declared.parent) && !ts.isTypeElement(declared.parent)
        : false;
    if (!ts.isExternalModule(file)) return false;
    const exported = (ts.getCombinedModifierFlags(declared.parent as TS.Declaration) & ts.ModifierFlags.Export) !== 0;
    const word = new RegExp(`(?<![\\w$])${name.replace(/\$/g, '\\$')}(?![\\w$])`);
    const named = file.statements.some(
      (st) => (ts.isExportDeclaration(st) || ts.isExportAssignment(st)) && word.test(st.getText(file)),
    );
    const imported = [ts.isImportSpecifier, ts.isImportClause, ts.isNamespaceImport, ts.isImportEqualsDeclaration];
    return !exported && !named && !imported.some((is) => is(declared.parent));
  }
  return false;
}

/** The innermost node of `file` holding `at`. */
function nodeAt(ts: TypeScript, file: TS.SourceFile, at: number): TS.Node {
  let node: TS.Node = file;
  for (;;) {
    const inner: TS.Node | undefined = ts.forEachChild(node, (c) =>
      c.getStart(file) <= at && at < c.getEnd() ? c : undefined,
    );
    if (!inner) return node;
    node = inner;
  }
}

/** Whether `node` opens a scope its declarations belong to. */
function isScope(ts: TypeScript, node: TS.Node): boolean {
  return (
    ts.isSourceFile(node) ||
    ts.isBlock(node) ||
    ts.isModuleBlock(node) ||
    ts.isCaseBlock(node) ||
    ts.isFunctionLike(node) ||
    ts.isClassLike(node) ||
    ts.isInterfaceDeclaration(node) ||
    ts.isTypeLiteralNode(node) ||
    ts.isEnumDeclaration(node) ||
    ts.isObjectLiteralExpression(node) ||
    ts.isForStatement(node) ||
    ts.isForInStatement(node) ||
    ts.isForOfStatement(node) ||
    ts.isCatchClause(node)
  );
}

/** The scope the declaration whose name is `name` belongs to (a function's body is the function's). */
function scopeOf(ts: TypeScript, name: TS.Node): TS.Node | undefined {
  let node = name.parent?.parent;
  while (node && !isScope(ts, node)) node = node.parent;
  if (node && ts.isBlock(node) && node.parent && ts.isFunctionLike(node.parent)) return node.parent;
  return node;
}

/** A declaration named `name` directly in `scope` (not in a scope nested in it). */
function declarationNamed(ts: TypeScript, scope: TS.Node, name: string): TS.Node | undefined {
  let found: TS.Node | undefined;
  const visit = (node: TS.Node): void => {
    if (found) return;
    const named = (node as { name?: TS.Node }).name;
    const declares =
      ts.isVariableDeclaration(node) ||
      ts.isFunctionDeclaration(node) ||
      ts.isClassDeclaration(node) ||
      ts.isInterfaceDeclaration(node) ||
      ts.isTypeAliasDeclaration(node) ||
      ts.isEnumDeclaration(node) ||
      ts.isModuleDeclaration(node) ||
      ts.isImportSpecifier(node) ||
      ts.isImportClause(node) ||
      ts.isNamespaceImport(node) ||
      ts.isImportEqualsDeclaration(node) ||
      ts.isBindingElement(node) ||
      ts.isParameter(node) ||
      ts.isClassElement(node) ||
      ts.isTypeElement(node) ||
      ts.isEnumMember(node) ||
      ts.isPropertyAssignment(node) ||
      ts.isShorthandPropertyAssignment(node);
    if (declares && named && ts.isIdentifier(named) && named.text === name) {
      found = named;
      return;
    }
    if (named && (ts.isBindingElement(node) || ts.isVariableDeclaration(node) || ts.isParameter(node)))
      if (!ts.isIdentifier(named)) visit(named);
    // A nested scope's declarations are its own (a function's name is its scope's, visited above).
    if (node !== scope && isScope(ts, node) && !(ts.isBlock(node) && node.parent === scope)) return;
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(scope, visit);
  return found;
}

/** Whether `name` is an identifier TypeScript reads as one (a keyword is not). */
function isIdentifierText(ts: TypeScript, name: string): boolean {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, name);
  const token = scanner.scan();
  // Contextual keywords (type, async, of...) name things; reserved words, strict mode's too, do not.
  const named =
    token === ts.SyntaxKind.Identifier ||
    token === ts.SyntaxKind.PrivateIdentifier ||
    (token > ts.SyntaxKind.LastFutureReservedWord && token <= ts.SyntaxKind.LastKeyword);
  return named && scanner.getTokenEnd() === name.length;
}

function splitKey(key: string): [string, number] {
  const cut = key.lastIndexOf('\0');
  return [key.slice(0, cut), Number(key.slice(cut + 1))];
}

/** A project with no tsconfig.json or jsconfig.json: modern modules, JavaScript read as TypeScript reads it. */
const DEFAULTS: TS.CompilerOptions = {
  target: 99, // ESNext
  module: 99, // ESNext
  moduleResolution: 100, // Bundler
  jsx: 1, // Preserve
  allowJs: true,
  allowImportingTsExtensions: true,
  resolveJsonModule: true,
  esModuleInterop: true,
};

/** How many spellings of a declaration file's name leftByRename asks about, at most, before it lets the rename be. */
const USES_ASKED = 20;

/** How many spellings of a JavaScript declaration's name, in files no reference reached, importersOf asks at most. */
const IMPORTS_ASKED = 200;

const JAVASCRIPT = /\.(js|cjs|mjs|jsx)$/;

/**
 * What an import of the module `abs` spells in its specifier: its name without the extension
 * (`./lib` for lib.js), or its folder's name for an index file (`./lib`, `./lib/index` for
 * lib/index.js).
 */
function moduleWords(abs: string): string[] {
  const name = path.basename(abs).replace(JAVASCRIPT, '');
  return [name === 'index' ? path.basename(path.dirname(abs)) : name];
}

/**
 * The name under which a CommonJS module exports `id` as itself, when it does: `id` as a property
 * of the object assigned to `module.exports` (`module.exports = { id }`, `{ id: ... }`, or its
 * value in `{ id: id }`), as a property assigned on `exports` or `module.exports` (`exports.id =
 * ...`), or as the value so assigned (`exports.id = id`: the property's name).
 */
function commonJsExport(ts: TypeScript, id: TS.Identifier): TS.Node | undefined {
  const isExports = (e: TS.Expression) =>
    (ts.isIdentifier(e) && e.text === 'exports') ||
    (ts.isPropertyAccessExpression(e) &&
      ts.isIdentifier(e.expression) &&
      e.expression.text === 'module' &&
      e.name.text === 'exports');
  const assignment = (n: TS.Node) =>
    ts.isBinaryExpression(n.parent) && n.parent.operatorToken.kind === ts.SyntaxKind.EqualsToken ? n.parent : undefined;
  // `exports.id = ...`: the assigned property, `exports.id = id`: the value, named as the property.
  const property = (left: TS.Expression) =>
    ts.isPropertyAccessExpression(left) && isExports(left.expression) && left.name.text === id.text
      ? left.name
      : undefined;
  const p = id.parent;
  // `{ id }`, `{ id: ... }`, and `{ id: id }` from its value: the property.
  const named =
    ts.isShorthandPropertyAssignment(p) ||
    (ts.isPropertyAssignment(p) &&
      (p.name === id || (p.initializer === id && ts.isIdentifier(p.name) && p.name.text === id.text)));
  if (named) {
    const set = ts.isObjectLiteralExpression(p.parent) ? assignment(p.parent) : undefined;
    return set && set.right === p.parent && isExports(set.left) ? p.name : undefined;
  }
  if (ts.isPropertyAccessExpression(p) && p.name === id) return assignment(p)?.left === p ? property(p) : undefined;
  const set = assignment(id);
  return set?.right === id ? property(set.left) : undefined;
}

/** A global pattern of `name` as a whole identifier. */
function wordPattern(name: string): RegExp {
  return new RegExp(`(?<![\\p{L}\\p{N}$_])${name.replaceAll('$', '\\$')}(?![\\p{L}\\p{N}$_])`, 'gu');
}

/** Whatever the project says: nothing is emitted, JavaScript files are in, no standard library is looked for. */
const OVERRIDES: TS.CompilerOptions = {
  noEmit: true,
  allowJs: true,
  noLib: true,
  composite: false,
  incremental: false,
  declaration: false,
  emitDeclarationOnly: false,
};
