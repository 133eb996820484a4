// TypeScript's own parser as the judge of a JavaScript or TypeScript change (syntax.ts asks it
// before refusing one): tree-sitter's grammars lag the language (`accessor`, `<in T>`, `import
// defer`) and misread some valid files whole (zx's src/core.ts is one error from line 1 to the
// end to them), TypeScript's parser does neither.
//
// It only parses (createSourceFile, and for JavaScript the syntactic walk of a one-file
// program, which says where TypeScript-only syntax is used): no emit and no checker, which a
// file of text or of odd bytes (a highlighted fixture full of ANSI escapes) once drove into a
// stack overflow, and which cost a refusal seconds on a big file.

import { changedSpan } from './changedSpan.js';
import type { LanguageId } from './languages.js';
import { loadTypeScript } from './loadTypeScript.js';
import { newProblems, type ChangedLines } from './newProblems.js';
import { MAX_ERRORS, type SyntaxProblem } from './problem.js';

type TypeScript = typeof import('typescript');

/** The languages TypeScript's parser reads, with the kind of script it reads them as. */
const SCRIPT_NAME: Partial<Record<LanguageId, string>> = {
  javascript: 'check.js',
  typescript: 'check.ts',
  tsx: 'check.tsx',
};

export function typeScriptReads(language: LanguageId): boolean {
  return SCRIPT_NAME[language] !== undefined;
}

type SourceFile = import('typescript').SourceFile;

function parse(language: LanguageId, text: string): { ts: TypeScript; file: SourceFile } | undefined {
  const ts = loadTypeScript();
  const fileName = SCRIPT_NAME[language];
  if (!ts || !fileName) return undefined;
  const options = { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone };
  return { ts, file: ts.createSourceFile(fileName, text, options, false) };
}

/**
 * `file` parsed again as `text`, reusing what did not change (half the cost of a parse of a
 * big file, for a change of a few lines). `file` is used up.
 */
function reparse(ts: TypeScript, file: SourceFile, text: string): SourceFile {
  const { start, oldEnd, newEnd } = changedSpan(file.text, text);
  return ts.updateSourceFile(file, text, { span: { start, length: oldEnd - start }, newLength: newEnd - start });
}

function problemsOf(ts: TypeScript, language: LanguageId, file: SourceFile): SyntaxProblem[] {
  const found = language === 'javascript' ? javaScriptDiagnostics(ts, file) : fileDiagnostics(file);
  return found.slice(0, MAX_ERRORS).map((d) => {
    const start = d.start ?? 0;
    const at = file.getLineAndCharacterOfPosition(start);
    const [line, column] = [at.line + 1, at.character + 1];
    const endLine = file.getLineAndCharacterOfPosition(start + (d.length ?? 0)).line + 1;
    return {
      line,
      column,
      endLine,
      message: messageOf(ts, d),
      kind: `ts ${d.code}`,
      contextStart: line,
      contextEnd: endLine,
    };
  });
}

/** The parser's diagnostics of a file (an internal field, typed here: `getSyntacticDiagnostics` needs a program). */
function fileDiagnostics(file: import('typescript').SourceFile): readonly import('typescript').Diagnostic[] {
  return (file as unknown as { parseDiagnostics?: readonly import('typescript').Diagnostic[] }).parseDiagnostics ?? [];
}

/**
 * A JavaScript file's syntactic diagnostics: the parser's, and TypeScript-only syntax (type
 * annotations, `interface`, `as`), which the parser reads in any file and a program reports.
 * The program reads nothing but this file (no library, no imports) and is never checked.
 */
function javaScriptDiagnostics(
  ts: TypeScript,
  file: import('typescript').SourceFile,
): readonly import('typescript').Diagnostic[] {
  const options = { allowJs: true, noLib: true, noResolve: true, types: [], target: ts.ScriptTarget.Latest };
  const host: import('typescript').CompilerHost = {
    getSourceFile: (name) => (name === file.fileName ? file : undefined),
    getDefaultLibFileName: () => 'lib.d.ts',
    writeFile: () => undefined,
    getCurrentDirectory: () => '/',
    getCanonicalFileName: (name) => name,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => '\n',
    fileExists: (name) => name === file.fileName,
    readFile: () => undefined,
  };
  const program = ts.createProgram({ rootNames: [file.fileName], options, host });
  return program.getSyntacticDiagnostics(file);
}

/** "',' expected." as rt says it: "expected `,`"; other messages without their full stop. */
function messageOf(ts: TypeScript, diagnostic: import('typescript').Diagnostic): string {
  const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
  const expected = /^'(.+)' expected\.$/.exec(text);
  if (expected) return `expected \`${expected[1]}\``;
  return `${text.charAt(0).toLowerCase()}${text.slice(1)}`.replace(/\.$/, '');
}

/** What the grammar (tree-sitter) found: new errors in the change, and errors in the old content. */
export interface GrammarFound {
  readonly made: boolean;
  readonly old: boolean;
}

/**
 * TypeScript's verdict on a change in whose new content the grammar found errors: `made` holds
 * the errors the change made as TypeScript sees them (empty: TypeScript clears the change);
 * undefined when TypeScript cannot be loaded or its parser fails (the grammar's answer stands).
 *
 * Where the grammar found new errors, TypeScript clears the change when it reads the new
 * content clean, or (the grammar having found errors in the old content too) with no more
 * errors than the old; where the grammar read the old content clean, TypeScript's errors in
 * the new one are taken as new without parsing the old (the grammar misses little that
 * TypeScript's parser finds, and a refusal costs one parse the less). Where the grammar found
 * only errors the old content had (it may have misread it), TypeScript judges: the errors it
 * finds in the new content that it cannot pair with its own in the old are new.
 */
export function typeScriptVerdict(
  language: LanguageId,
  before: string,
  after: string,
  hunks: readonly ChangedLines[],
  grammar: GrammarFound,
): { made: SyntaxProblem[] } | undefined {
  try {
    return verdict(language, before, after, hunks, grammar);
  } catch {
    // Its parser recurses as deep as the text nests, and error recovery in text that is not
    // code (a highlighted fixture's escapes) can nest deeper than the stack.
    return undefined;
  }
}

function verdict(
  language: LanguageId,
  before: string,
  after: string,
  hunks: readonly ChangedLines[],
  grammar: GrammarFound,
): { made: SyntaxProblem[] } | undefined {
  if (!grammar.made) {
    const old = parse(language, before);
    if (!old) return undefined;
    const was = problemsOf(old.ts, language, old.file);
    const now = problemsOf(old.ts, language, reparse(old.ts, old.file, after));
    // Errors TypeScript finds in the old content too are weighed as below: one old error must
    // not let every new break through.
    if (was.length === 0 || now.length <= was.length) return { made: was.length === 0 ? now : [] };
    const paired = newProblems(was, now, hunks);
    return { made: paired.length > 0 ? paired : now };
  }
  const now = parse(language, after);
  if (!now) return undefined;
  const made = problemsOf(now.ts, language, now.file);
  if (made.length === 0 || !grammar.old) return { made };
  const was = problemsOf(now.ts, language, reparse(now.ts, now.file, before));
  if (made.length <= was.length) return { made: [] };
  const paired = newProblems(was, made, hunks);
  return { made: paired.length > 0 ? paired : made };
}
