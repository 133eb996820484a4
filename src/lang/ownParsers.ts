// A language's own parser, asked before a refusal where the grammar may be older or narrower
// than the language: `python3` for Python, `bash -n` (or `sh -n` for a POSIX sh script) for
// shell scripts, `rustfmt` for Rust. Each runs as a child process that parses only (Python's
// compile() makes bytecode and never runs it; a shell's -n reads commands without running them;
// rustfmt formats to a pipe rt ignores), is given the text on its standard input, and is
// bounded in time. A parser that is not installed, does not
// finish in time, or answers in a way it should not has no verdict: the caller falls back on
// what the grammar is sure of.

import { tmpdir } from 'node:os';
import type { LanguageId } from './languages.js';
import type { SyntaxProblem } from './problem.js';

export type OwnParser = 'python3' | 'bash' | 'sh' | 'rustfmt';

export type Verdict =
  | { readonly status: 'ok' }
  | { readonly status: 'error'; readonly problem: SyntaxProblem }
  /** The parser could not say (not on PATH, too slow, crashed). */
  | { readonly status: 'none' };

/** A parser's start-up alone takes 20-60 ms on an idle machine and ten times that on a busy one. */
export const OWN_PARSER_TIMEOUT_MS = 5000;

/** The parser that reads a file of `language` whose text is `text`, if rt knows one. */
export function ownParserOf(language: LanguageId, text: string): OwnParser | undefined {
  if (language === 'python') return 'python3';
  if (language === 'bash') return POSIX_SHEBANG.test(text) ? 'sh' : 'bash';
  if (language === 'rust') return 'rustfmt';
  return undefined;
}

/** `#!/bin/sh`, `#!/usr/bin/env sh`, `#!/bin/dash`: read as POSIX sh, whose -n accepts less than bash's. */
const POSIX_SHEBANG = /^#![ \t]*(?:\S*\/)?(?:env[ \t]+)?(?:sh|dash)(?:[ \t]|$)/m;

/** What `parser` says of `text` (lines ending with `\n`, as rt's check reads them). */
export function ownVerdict(parser: OwnParser, text: string, timeoutMs = OWN_PARSER_TIMEOUT_MS): Verdict {
  const [program, args] = COMMANDS[parser];
  // BASH_ENV and ENV name files a non-interactive shell would read first: nothing runs but the parse.
  const env = { ...process.env };
  delete env.BASH_ENV;
  delete env.ENV;
  // rustup's proxy would install a toolchain that a rust-toolchain.toml names and is missing.
  env.RUSTUP_AUTO_INSTALL = '0';
  // Run away from the file's folder: its rustfmt.toml or rust-toolchain.toml changes no parse.
  // child_process is loaded here, by the check that runs a parser, not by every start of rt.
  const run = process.getBuiltinModule('node:child_process').spawnSync(program, args, {
    input: text,
    encoding: 'utf8',
    timeout: timeoutMs,
    env,
    cwd: tmpdir(),
    windowsHide: true,
    maxBuffer: 16 * 1024 * 1024,
  });
  if (run.error || run.signal || run.status === null) return NONE;
  if (run.status === 0) return OK;
  const problem =
    parser === 'python3'
      ? pythonProblem(run.status, run.stdout)
      : parser === 'rustfmt'
        ? rustProblem(run.stderr)
        : shellProblem(run.stderr);
  return problem ? { status: 'error', problem } : NONE;
}

const OK: Verdict = { status: 'ok' };
const NONE: Verdict = { status: 'none' };

/**
 * Python: the text is compiled whole (its own errors too: `return` outside a function), warnings
 * silenced. A syntax error exits 3 with its place and message as JSON; anything else (a
 * recursion limit on deep nesting, no memory) is no verdict.
 */
const PYTHON_SCRIPT = `
import sys, json, warnings
warnings.simplefilter('ignore')
source = sys.stdin.buffer.read().decode('utf-8', 'replace')
try:
    compile(source, '<rt>', 'exec', dont_inherit=True)
except SyntaxError as e:
    print(json.dumps([e.lineno or 1, e.offset or 1, e.msg]))
    sys.exit(3)
except ValueError as e:
    print(json.dumps([1, 1, str(e)]))
    sys.exit(3)
`;

const COMMANDS: Readonly<Record<OwnParser, readonly [string, string[]]>> = {
  // -I: no user site or PYTHON* variables; -S: no site module (half the start-up).
  python3: ['python3', ['-I', '-S', '-c', PYTHON_SCRIPT]],
  // A shell names the line of an error in a script file, not in a script it reads on its input;
  // /dev/stdin is a file where the input is a pipe (Node gives a child a socket: `cat |` makes
  // the pipe). extglob: a script that turns it on (`shopt -s extglob`) uses its patterns, and -n
  // runs no shopt.
  bash: ['sh', ['-c', 'cat | bash --norc --noprofile -O extglob -n /dev/stdin']],
  sh: ['sh', ['-c', 'cat | sh -n /dev/stdin']],
  // The newest edition reads the most: a keyword of an older one (`async` as a name) is an error
  // in the old content as well, so no new one.
  rustfmt: ['rustfmt', ['--edition', '2024', '--emit', 'stdout']],
};

function pythonProblem(status: number, stdout: string): SyntaxProblem | undefined {
  if (status !== 3) return undefined;
  try {
    const [line, column, message] = JSON.parse(stdout) as [number, number, string];
    return problem(line, column, message, `python3: ${message}`);
  } catch {
    return undefined;
  }
}

/** bash: `/dev/stdin: line 3: syntax error near …`; dash: `/dev/stdin: 3: Syntax error: …`. */
function shellProblem(stderr: string): SyntaxProblem | undefined {
  const first = /^\/dev\/stdin: (?:line )?(\d+): (.*)$/m.exec(stderr);
  if (!first) return undefined;
  const message = first[2]!.trim();
  return problem(Number(first[1]), 1, message, `shell: ${message}`);
}

/** rustc's parse errors (`error: expected …` or `error[E0586]: …`, then ` --> <stdin>:2:13`); not rustfmt's own. */
function rustProblem(stderr: string): SyntaxProblem | undefined {
  const first = /^error(?:\[E\d+\])?: (.*)\n\s*--> <stdin>:(\d+):(\d+)/m.exec(stderr);
  if (!first) return undefined;
  const message = first[1]!.trim();
  return problem(Number(first[2]), Number(first[3]), message, `rustfmt: ${message}`);
}

function problem(line: number, column: number, message: string, kind: string): SyntaxProblem {
  return { line, column, message, kind, endLine: line, contextStart: line, contextEnd: line };
}
