// The data of the scale benchmark (bench/scale.mjs), generated: the same bytes for the same sizes
// on every machine (a seeded generator), made once and kept under SCALE_DIR; a folder is made
// again when the sizes asked for differ from those its stamp records.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** The string grep finds in the tree: in no word the generator makes (they are lower case). */
export const TREE_TOKEN = 'SCALETOKEN';
/** The string grep-file finds in a big file: on 100 lines spread through it. */
export const RARE_TOKEN = 'RAREMARKER';
/** The strings of the long line: grep-file finds the first; the edits swap them back and forth. */
export const LONG_TOKENS = ['LONGMARKER_A', 'LONGMARKER_B'];

/** mulberry32: a small seeded generator of numbers in [0, 1). */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Text that reads like code and prose: lines of words from a vocabulary of 2,000, some lines repeated. */
function textMaker(seed) {
  const rnd = random(seed);
  const syllables = ['ka', 'lo', 'mi', 'ren', 'tas', 'vo', 'qui', 'zel', 'dor', 'fen', 'hu', 'bri', 'nok', 'sa'];
  const vocabulary = Array.from({ length: 2000 }, () => {
    let w = '';
    for (let n = 2 + Math.floor(rnd() * 3); n > 0; n--) w += syllables[Math.floor(rnd() * syllables.length)];
    return w;
  });
  const punctuation = [' ', ' ', ' ', ' = ', '(', ') ', ', ', '.', '; ', ' + '];
  /** One line of about `length` bytes (without its newline). */
  const fresh = (length) => {
    let s = ' '.repeat(2 * Math.floor(rnd() * 5));
    while (s.length < length) {
      s += vocabulary[Math.floor(rnd() * vocabulary.length)];
      s += punctuation[Math.floor(rnd() * punctuation.length)];
    }
    return s.trimEnd();
  };
  // Lines met again and again, as closing braces and common statements are in code.
  const common = ['}', '', '  return result;', '    }', '} else {', ...Array.from({ length: 200 }, () => fresh(40))];
  /** A line of `average` bytes on average; one in eight is a common line. */
  return (average) =>
    rnd() < 0.125 ? common[Math.floor(rnd() * common.length)] : fresh(average * 0.4 + rnd() * average);
}

/** Whether `dir` holds the data `stamp` describes (made whole: the stamp is written last). */
function made(dir, stamp) {
  try {
    return fs.readFileSync(path.join(dir, '.scale-stamp'), 'utf8') === JSON.stringify(stamp);
  } catch {
    return false;
  }
}

function restart(dir) {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
}

const stampDone = (dir, stamp) => fs.writeFileSync(path.join(dir, '.scale-stamp'), JSON.stringify(stamp));

/**
 * Two copies of a tree of `files` files (100 to a folder, some 40 lines each, two lines of each
 * holding TREE_TOKEN): `git` committed in a git repository, `plain` not under git.
 */
export function makeTrees(base, files) {
  const stamp = { files, version: 1 };
  const dirs = { git: path.join(base, 'tree-git'), plain: path.join(base, 'tree-plain') };
  if (made(dirs.git, stamp) && made(dirs.plain, stamp)) return dirs;
  console.error(`scale: making two trees of ${files.toLocaleString('en')} files`);
  for (const dir of Object.values(dirs)) restart(dir);
  const line = textMaker(1);
  const extensions = ['js', 'ts', 'md', 'txt', 'py'];
  for (let i = 0; i < files; i++) {
    const lines = Array.from({ length: 30 + (i % 20) }, () => line(54));
    lines[3] = `${lines[3]} ${TREE_TOKEN} first`;
    lines[lines.length - 5] = `  ${TREE_TOKEN}(${i});`;
    const rel = path.join(`d${String(Math.floor(i / 100)).padStart(3, '0')}`, `f${i}.${extensions[i % 5]}`);
    for (const dir of Object.values(dirs)) {
      fs.mkdirSync(path.join(dir, path.dirname(rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), `${lines.join('\n')}\n`);
    }
  }
  const git = (...args) => {
    const r = spawnSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.com', ...args], {
      cwd: dirs.git,
      encoding: 'utf8',
    });
    if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  };
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'scale benchmark tree');
  for (const dir of Object.values(dirs)) stampDone(dir, stamp);
  return dirs;
}

/** Writes `count` lines made by `next(i)` to `file`, a few thousand lines a write. */
function writeLines(file, count, next) {
  const fd = fs.openSync(file, 'w');
  try {
    for (let i = 0; i < count; ) {
      const chunk = [];
      for (const end = Math.min(count, i + 8192); i < end; i++) chunk.push(next(i));
      fs.writeSync(fd, `${chunk.join('\n')}\n`);
    }
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * A folder holding big.txt, `lines` lines of some 54 bytes (RARE_TOKEN on 100 of them), its copy
 * sed.txt for sed to edit, and small.txt (150 lines) for the rows timed against a small open.
 */
export function makeBig(base, lines) {
  const dir = path.join(base, `big-${lines}`);
  const stamp = { lines, version: 1 };
  const files = { dir, big: 'big.txt', sed: 'sed.txt', small: 'small.txt' };
  if (made(dir, stamp)) return files;
  console.error(`scale: making a file of ${lines.toLocaleString('en')} lines`);
  restart(dir);
  const line = textMaker(lines);
  const every = Math.floor(lines / 100);
  writeLines(path.join(dir, 'big.txt'), lines, (i) =>
    i % every === every >> 1 ? `${line(40)} ${RARE_TOKEN} ${i}` : line(54),
  );
  fs.copyFileSync(path.join(dir, 'big.txt'), path.join(dir, 'sed.txt'));
  writeLines(path.join(dir, 'small.txt'), 150, () => line(54));
  stampDone(dir, stamp);
  return files;
}

/**
 * A folder holding long.js, one line of `bytes` bytes of minified-like JavaScript holding
 * LONG_TOKENS[0] three times, and its copy sed.js for sed to edit.
 */
export function makeLong(base, bytes) {
  const dir = path.join(base, `long-${bytes}`);
  const stamp = { bytes, version: 1 };
  const files = { dir, long: 'long.js', sed: 'sed.js' };
  if (made(dir, stamp)) return files;
  console.error(`scale: making a line of ${(bytes / 1e6).toFixed(0)} MB`);
  restart(dir);
  const rnd = random(7);
  const name = () => String.fromCharCode(97 + Math.floor(rnd() * 26)) + Math.floor(rnd() * 100).toString(36);
  const pieces = [];
  let size = 0;
  const marks = [0.25, 0.5, 0.75].map((f) => f * bytes);
  for (let k = 0; size < bytes; k++) {
    const piece =
      size >= marks[0]
        ? `var ${LONG_TOKENS[0]}=${marks.shift() && k};`
        : `function ${name()}(${name()},${name()}){return ${name()}+${name()}*${k % 97}}` +
          `var ${name()}=[${k},"${name()}"];`;
    pieces.push(piece);
    size += piece.length;
  }
  fs.writeFileSync(path.join(dir, 'long.js'), `${pieces.join('')}\n`);
  fs.copyFileSync(path.join(dir, 'long.js'), path.join(dir, 'sed.js'));
  stampDone(dir, stamp);
  return files;
}
