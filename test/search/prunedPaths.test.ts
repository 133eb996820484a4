// Reading ripgrep's --debug log for the paths its walk left out (src/search/ripgrep.ts): those rt
// puts to git, since ripgrep's ignore rules are not git's.

import { describe, expect, it } from 'vitest';
import { prunedPaths as prunedIn } from '../../src/search/ripgrep.js';

/** What ripgrep's walk of the folder /r left out. */
const prunedPaths = (log: Buffer) => prunedIn(log, ['/r']);

const walk = 'DEBUG|ignore::walk|/usr/share/cargo/registry/ignore-0.4.18/src/walk.rs:1741: ';
const log = (...lines: string[]) => Buffer.from(lines.map((l) => `${l}\n`).join(''));

describe('prunedPaths', () => {
  it('names each path left out for an ignore rule, but hidden ones', () => {
    expect(
      prunedPaths(
        log(
          'DEBUG|rg::args|crates/core/args.rs:527: not reading config files because --no-config is present',
          `${walk}ignoring /r/.git: Ignore(IgnoreMatch(Hidden))`,
          `${walk}ignoring /r/a.log: Ignore(IgnoreMatch(Gitignore(Glob { from: Some("/r/.gitignore"), ` +
            `original: "*.{log,tmp}", actual: "**/*.{log,tmp}", is_whitelist: false, is_only_dir: false })))`,
          `${walk}ignoring /r/my dir: odd: Ignore(IgnoreMatch(Gitignore(Glob { from: Some("/r/.rgignore"), ` +
            `original: "my*", actual: "**/my*", is_whitelist: false, is_only_dir: false })))`,
          `${walk}whitelisting /r/keep.log: Whitelist(IgnoreMatch(Gitignore(Glob { original: "!keep.log" })))`,
          `rg: DEBUG|ignore::walk|crates/ignore/src/walk.rs:1730: ignoring /r/vendor: ` +
            `Ignore(IgnoreMatch(Override(Glob)))`,
        ),
      ),
    ).toEqual(['/r/a.log', '/r/my dir: odd', '/r/vendor']);
    expect(prunedPaths(Buffer.alloc(0))).toEqual([]);
  });

  it('passes over what other parts of ripgrep leave out (a symbolic link: rt skips those too)', () => {
    expect(
      prunedPaths(
        log(
          'DEBUG|rg::subject|crates/core/subject.rs:53: ignoring /r/link.ts: failed to pass subject filter: ' +
            'file type: FileType(FileType { mode: 41471 })',
          `${walk}ignoring /r/x.o: Ignore(IgnoreMatch(Gitignore(Glob)))`,
        ),
      ),
    ).toEqual(['/r/x.o']);
  });

  it(
    'cannot tell from a log it cannot read: a path holding ' +
      'a newline, or the words of a log line; a line cut short',
    () => {
      expect(prunedPaths(log(`${walk}ignoring /r/a`, `b.txt: Ignore(IgnoreMatch(Gitignore(Glob)))`))).toBeUndefined();
      // A file named "x: Ignore(IgnoreMatch(Hidden)\nDEBUG|y", and one named with the words of a match.
      expect(
        prunedPaths(
          log(
            `${walk}ignoring /r/x: Ignore(IgnoreMatch(Hidden)`,
            `DEBUG|y: Ignore(IgnoreMatch(Gitignore(Glob { from: Some("/r/.rgignore") })))`,
          ),
        ),
      ).toBeUndefined();
      expect(
        prunedPaths(
          log(
            `${walk}ignoring /r/a: Ignore(IgnoreMatch(b/x.txt: Ignore(IgnoreMatch(Gitignore(Glob { from: ` +
              `Some("/r/a: Ignore(IgnoreMatch(b/.rgignore") })))`,
          ),
        ),
      ).toBeUndefined();
      expect(
        prunedPaths(
          log(`${walk}ignoring /r/a: Ignore(IgnoreMatch(Hidden)/x.txt: Ignore(IgnoreMatch(Gitignore(Glob)))`),
        ),
      ).toBeUndefined();
      expect(prunedPaths(log(`${walk}ignoring /r/a.txt`))).toBeUndefined();
      // A file named "a: Ignore(IgnoreMatch(Hidden)\nDEBUG|ignore::walk|z: whitelisting q", or with a place in
      // the source made up.
      expect(
        prunedPaths(
          log(
            `${walk}ignoring /r/a: Ignore(IgnoreMatch(Hidden)`,
            'DEBUG|ignore::walk|z: whitelisting q: Whitelist(IgnoreMatch(Gitignore(Glob)))',
          ),
        ),
      ).toBeUndefined();
      expect(
        prunedPaths(
          log(
            `${walk}ignoring /r/a: Ignore(IgnoreMatch(Hidden)`,
            'DEBUG|ignore::walk|z.rs:1: whitelisting q: Whitelist(IgnoreMatch(Gitignore(Glob)))',
          ),
        ),
      ).toBeUndefined();
      expect(prunedPaths(log(`${walk}ignoring /elsewhere/x.o: Ignore(IgnoreMatch(Gitignore(Glob)))`))).toBeUndefined();
      expect(prunedPaths(log('error: something else entirely'))).toBeUndefined();
    },
  );
});
