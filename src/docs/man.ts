// Renders man/rt.1 from the command definitions plus the sections that describe rt as a whole.
// The committed page is compared with this output by a test, so the two never drift.

import type { CommandDoc, CommandSpec, OptionSpec } from '../cli/spec.js';
import { GLOBAL_OPTIONS, HELP_COMMAND } from '../cli/spec.js';

interface Section {
  readonly title: string;
  readonly body: readonly Block[];
}

/** A paragraph, an indented example, or a tagged paragraph (term + text). */
type Block = string | { readonly example: string } | { readonly term: string; readonly text: string };

const OVERVIEW: readonly Section[] = [
  {
    title: 'DESCRIPTION',
    body: [
      'rt reads, searches and edits text files by persistent line IDs (LIDs). Every line it shows carries its ' +
        'number and its LID; edits name LIDs and read the new text from standard input, so the old text never ' +
        'has to be typed again, and a line that changed since it was shown is refused instead of overwritten.',
      'A window looks like this:',
      {
        example:
          '--- src/app.ts (lines 101-200 of 834) ---\n(100 more lines above)\n101:kq3f|    const total = ' +
          'items.reduce(add, 0);\n102:mw7a|    return total;\n(634 more lines below)',
      },
      'The header names the path (relative to the working directory) and the lines shown. The count lines ' +
        'always say "lines", even for one, so one pattern parses them; they are left out when there is nothing ' +
        'above or below. An empty file shows only the header "--- PATH (empty file) ---".',
      "Each line is NUMBER:LID|CONTENT. CONTENT is the line's bytes exactly as in the file (tabs, invalid " +
        'UTF-8 and control bytes included) without its line ending: a "\\r" before the "\\n" belongs to the ' +
        'line ending and is not shown; a "\\r" anywhere else is content. A UTF-8 byte order mark is not part of ' +
        'line 1. A line longer than 2,000 characters is cut for display, ending in "… [+N chars]" (a search hit ' +
        'whose first match does not end within those characters is shown around that match instead, "[+N chars] ' +
        '…" before it); the file is never changed by reading.',
    ],
  },
  {
    title: 'LINE IDS',
    body: [
      'An LID is 4 lowercase characters for files of up to 100,000 lines (5 up to 3,000,000, then 6), from ' +
        'the alphabet 0-9 and a-z without i, l, o and u, and always contains a letter, so it is never read as a ' +
        'line number.',
      "A line's LID is derived from its key: its candidates are a fixed sequence hashed from the key. With " +
        'no saved state (a first reading, .rt/ deleted, a fresh clone, RT_STATE=off), a line whose content ' +
        'occurs once in the file is keyed by its content alone, so it keeps its LID wherever it moves. A line ' +
        'whose content occurs more than once (a blank line, "}") is keyed by its content, its stretch and its ' +
        'offset in it: the stretch is the run of such repeated lines it stands in, bounded by the nearest line ' +
        'above and the nearest line below whose content occurs once in the file (or by the start and the end of ' +
        'the file). That is how far its surroundings are widened: to the first line on each side that tells it ' +
        'apart from every other line, and no further. Deleting, inserting, changing or moving lines outside a ' +
        'stretch leaves its LIDs alone (unless the change makes the content of a line bounding it occur again, ' +
        "or a repeated content of it occur once: uniqueness is the whole file's); a change inside it gives all " +
        'its lines new LIDs, for then the bytes alone cannot say which of equal lines went (in "x } } } y" that ' +
        'lost a "}", which one?), and an old LID refused is safe where one handed to a neighbour is not. Only a ' +
        'line with the same content, in an identical stretch, at the same offset (one indistinguishable from it ' +
        "by text and surroundings) can take a line's LID in a fresh reading. Each line claims its candidates " +
        'that contain a letter, one after another: the one it holds and the next, as a reserve; it keeps the ' +
        'one it holds once no other line of the file claims that code, held, reserved or passed, and lines ' +
        "whose claims clash all move on to their next. So no LID depends on a line's rank or order, a line new " +
        'to the file never takes a code another line holds (both move on), and a line gone back to its first ' +
        'candidate (the line it clashed with changed) still reserves the one it held: the same file with no ' +
        'saved state gets the same LIDs on any machine.',
      'When a file changed since rt last saw it, rt carries the LIDs it saved to the lines they name. An edit ' +
        'by rt knows which lines it replaced: the lines around keep their LIDs, and so do the first and last ' +
        'lines of the region it gave the same content, and a line of the region whose content occurs once in ' +
        'the file before and after (a moved line). A change made by anything else (an editor, git, a formatter) ' +
        'is read by pairing old lines with new ones, and a pair is kept only when the bytes leave no doubt ' +
        'about it. A line whose content occurs once in the old file and once in the new is the same line, ' +
        'wherever it went. The line diff (Myers, bounded) finds what was removed and added; around each such ' +
        'place, a window reaching out to a line of unique content on each side is paired again by the pairs ' +
        'that every longest common subsequence of it makes, so that where one change can be read two ways (one ' +
        '"}" gone of "} } }", "a b" removed from "a b a b"), the lines involved take new LIDs: their old LIDs ' +
        'are refused, never handed to another line. Where a window holds a change that removes and adds the ' +
        'same content (a line or block moved within it, or cut and written again), the bytes say least (did "c" ' +
        'move up past "a b", or "a b" down past "c"?): every repeated line of that window takes a new LID, ' +
        'lines of unique content keep theirs. A move from one window to another, across lines of unique ' +
        'content, reads alike whichever lines moved: the lines between keep their LIDs. (A window of more than ' +
        'a million line pairs, thousands of changed lines with no unique line among them, keeps the line ' +
        "diff's pairs, less those a run of equal lines lets the change slide along, when it holds one change; " +
        'when it holds several, its repeated lines take new LIDs.) A changed or new line gets a new LID: the ' +
        'first candidate of its key, as a fresh reading would give it, that is neither in use nor retired; the ' +
        'LIDs of changed and deleted lines are retired and not given to other content again (retired LIDs are ' +
        "remembered for 30 days, and at most the larger of 65,536 and twice the file's line count).",
      'So an LID printed for a line names that line or is refused, with state kept, deleted or off, and from ' +
        'whatever folder rt runs. Without saved state one limit remains: LIDs of 4 characters are 20 bits, and ' +
        'without the retired LIDs of saved state a line new to the file may by chance get the LID an older, now ' +
        'changed line had (about once in 2^20 / (lines in the file) new lines), and, by two such chances at ' +
        "once (a line moved two candidates on by clashes that a change then undoes, and the changed line's " +
        "first candidate its old LID), even an unchanged line's; the shown rule (ANCHORS) then still refuses it " +
        'until it has been shown, except with RT_STATE=off.',
    ],
  },
  {
    title: 'ANCHORS',
    body: [
      'Where a command takes a line, it takes an anchor:',
      {
        term: 'kq3f',
        text:
          'An LID: the line holding it now, wherever it moved. An LID whose line was changed or deleted is ' +
          'refused (exit 3), naming the line (and its LID) that stands where it was, and the open command that ' +
          'shows it.',
      },
      {
        term: '101',
        text:
          'A line number, accepted only when it can mean one line alone: the line now at 101 is the line rt ' +
          'showed at 101, and no other line has been shown at 101 since the last open or scroll that showed it ' +
          '(the region printed after an edit and search hits count as shown). Otherwise it is refused (exit 3) ' +
          'with where the line shown there is now. A number never shown there (or, without saved state, any ' +
          'number) is refused too, unless --force, which takes it as the line now at that number.',
      },
      { term: '101:kq3f', text: 'Both; they must agree, else refused (exit 3) with where kq3f is now.' },
      {
        term: '$, end',
        text:
          'The position after the last line: insert $ appends. As TO of edit or delete, $ means through the ' +
          'last line.',
      },
      'An edit may only replace or delete lines rt has shown (in a window, a search hit or context line, or ' +
        'the region printed after an edit) since they last changed; a range covering other lines is refused ' +
        '(exit 3) with the open command that shows them, unless --force. The line an insert names must have ' +
        "been shown in that same file, whatever the anchor's form: an LID seen in another file (blank lines, " +
        '"}" and licence headers share LIDs across files) is refused. These checks need saved state: with ' +
        'RT_STATE=off they are not made.',
      'Instead of lines, edit, insert and delete take PATH:@NAME, and the hunks of apply @NAME: a definition ' +
        'whole, from its first decorator, attribute or doc comment to its last line. It counts as shown when ' +
        'every line of it was, or when rt outline listed it or rt open PATH:@NAME opened it and none of its ' +
        'lines changed, was added or was removed since (its LIDs are the same, in the same order); else the ' +
        'write is refused (exit 3) with the rt open PATH:@NAME that shows it, unless --force.',
    ],
  },
  {
    title: 'EDITING',
    body: [
      'The text of edit, insert and create is read from standard input, byte for byte, with one trailing ' +
        'newline ("\\n" or "\\r\\n") removed, and split into lines on "\\n". Give it as a quoted heredoc ' +
        "(<<'EOF') so the shell changes nothing. A terminal or empty standard input is refused (exit 2); a " +
        'heredoc holding one blank line is one empty line. To remove lines, use delete. Text holding a NUL byte ' +
        'is refused too (exit 2, nothing written), naming the lines of the text that hold one and the byte of ' +
        'the first: a NUL would make the file binary, and binary files are refused by open and edits and passed ' +
        "over by searches. A NUL meant as text is written as the file's language writes it (\\0, \\x00).",
      'New lines take the line ending most of the file uses (CRLF files stay CRLF). Every other byte stays as ' +
        'it was: line endings, a BOM, tabs and bytes that are not UTF-8 in lines not named. If the file ended ' +
        'without a newline it still does, unless its new last line is empty (an empty line needs its newline to ' +
        'exist).',
      'After an edit rt prints one line saying what changed, for example "edited src/app.ts: 101-102 → ' +
        '101-103 (+1)" (insert: "inserted PATH: 101-103 (+3)"; delete: "deleted PATH: 101-102 (-2)"; create: ' +
        '"created PATH: 1-N (+N)", or, with --force over an existing file, "replaced PATH: 1-M → 1-N (+D)" with ' +
        'the old and new line counts; a file without lines is "empty", as in "created PATH: empty (+0)"), then ' +
        'the changed region as a window with its fresh LIDs and up to 3 lines of context on each side (at most ' +
        '200 new lines; the rest is named on stderr). Every LID of an unchanged line stays valid, so several ' +
        'edits can be made, top to bottom, from one read.',
      'A file that is not writable for the user is refused (exit 4), though the folder would allow replacing ' +
        'it. Writes are atomic: the new content goes to a temporary file beside the target ' +
        "(.NAME.rt-tmp-PID-XXXXXX), is flushed, given the target's mode (and owner, when run as root), and " +
        'renamed over the target only if the target is still the version that was read (else exit 3, nothing ' +
        "written). A per-file lock (.NAME.rt-lock beside the file, holding the owner's pid) makes concurrent rt " +
        'processes take turns; the one that waits then resolves its anchors against the new content. A lock or ' +
        'temporary file left by a killed rt is removed by the next edit of the file that finds its owner gone ' +
        '(a lock file without an owner, after 2 seconds), or finds a temporary file over an hour old, whose PID ' +
        'another program may have taken since; only names ending exactly as rt makes them (PID-XXXXXX) are ' +
        'removed. A lock path holding anything but a regular file (a symbolic link, a FIFO, a folder) was not ' +
        'made by rt: the edit is refused at once (exit 4), naming it, and nothing is read through it. The ' +
        'rename replaces the file: other hard links to it keep the old content. A file of 1 MiB or more written ' +
        "alone (not in a batch of several) is first given a second name of the temporary files' form, removed " +
        'right after the rename on another thread, so that freeing the old content (some 17 ms for 60 MB) does ' +
        'not hold the edit up; a kill in between leaves that name to the next edit, as a temporary file.',
      '--dry-run prints the unified diff of the change and writes nothing, even under RT_READONLY. --diff (or ' +
        'RT_DIFF=1) prints the diff after the report.',
    ],
  },
  {
    title: 'PATHS AND THE ROOT',
    body: [
      'The root is the nearest ancestor of the working directory holding .git or .rt, else the working ' +
        'directory; --root DIR or RT_ROOT override it. Every path, after resolving ".." and symbolic links, ' +
        "must lie inside the root, and rt's own .rt folder is never read or edited as a file; anything else is " +
        'refused (exit 4). A missing file is refused with the closest existing paths.',
      "Nothing inside a repository's .git is written, removed or made, by any command, undo, redo or MCP " +
        "tool: the .git folder, the .git file of a worktree or submodule, a nested repository's, and a git " +
        'folder found on the way up (HEAD, objects and refs, as a --separate-git-dir makes). Nor anything ' +
        'inside .rt/. The names are matched whatever their case (.GIT), as a file system that ignores case ' +
        'reads them. Refused with exit 4, nothing written; reading them (open, grep) is allowed.',
      'In PATH:LINE, PATH:START-END, PATH:LID and PATH:LINE:LID, a path that exists as given (even with a ' +
        'colon in its name) is taken whole. Otherwise, when the part before the last colon names a file (or the ' +
        'part before LINE:, as grep prints a hit), what follows it must be one of those positions: anything ' +
        'else ($, 1-, -3, +5, 1,5) is bad usage (exit 2) naming the forms, with the position meant when it can ' +
        'be told. When no such file exists, what follows the last colon is read as a position if it has the ' +
        'shape of one, and the file is then reported missing (exit 4).',
      'A path holding control characters (a newline in a file name) is printed with each of them escaped as ' +
        '\\xNN (new\\x0aline.txt), so that it stays on one line; in the commands rt suggests (closest existing ' +
        "paths, the command that shows the rest, and the like) it is written in bash's ANSI-C quoting, " +
        "$'new\\nline.txt', which bash and zsh read back as the name itself.",
      'A file is binary, and refused, when its first 8 KiB hold a NUL byte or are more than a third control ' +
        'bytes other than tab, newline, carriage return, form feed, vertical tab, backspace and escape. Bytes ' +
        'of 0x80 and above are text, so Latin-1 and other non-UTF-8 files are read like any other.',
    ],
  },
];

const TRAILER: readonly Section[] = [
  {
    title: 'JSON OUTPUT',
    body: [
      'With --json every command prints one JSON document on standard output (one line), carrying what its ' +
        'text output carries; messages still go to standard error, and the exit status is the same. A line is ' +
        '{"n": NUMBER, "lid": LID, "text": CONTENT}; when its bytes are not valid UTF-8, "text" has U+FFFD in ' +
        'their place and "base64" holds the exact bytes. Content is never cut in JSON.',
      {
        term: 'open, scroll',
        text:
          '{"command", "path", "total", "start", "end", "above", "below", "lines": [LINE…]}; an empty file has ' +
          'start and end 0; a scroll with nothing further has no lines, a "note" ("at the end" or "at the ' +
          'top"), "above" (at the end) or "below" (at the top) equal to "total" and the other 0, and "last": ' +
          '{"start", "end"}, the last view.',
      },
      {
        term: 'edit, insert, delete, create',
        text:
          '{"command", "path", "written": true, "verb" (edited, inserted, deleted, created, or replaced for ' +
          'create --force over an existing file), "old": {"start", "count"}, "new": {"start", "count"}, ' +
          '"delta", "window": {as open, without "command"}, "diff"?}; with --dry-run {"command", "path", ' +
          '"written": false, "dryRun": true, "diff"}. A diff that is not valid UTF-8 also comes as ' +
          '"diffBase64".',
      },
      {
        term: 'grep',
        text:
          '{"command": "grep", "hits": [{"path", "n", "lid", "text", "base64"?, "hit", "matches"?}…], "more"}; ' +
          '"hit" is false for a context line; with -o a hit has "matches": [{"start", "end", "text", ' +
          '"base64"?}…], its matches as byte offsets in the line (its "text" is still the whole line). With -l: ' +
          '{"command": "grep", "files": [PATH…], "more"}. With -c: {"command": "grep", "counts": [{"path", ' +
          '"count"}…], "more"}. "more" is null, or {"hits"?, "files", "command"} when the cap left some out.',
      },
      {
        term: 'grep-file',
        text:
          '{"command": "grep-file", "path", "hits": [{"n", "lid", "text", "base64"?, "hit", "matches"?}…], ' +
          '"more"}; with -c: {"command": "grep-file", "path", "count"}.',
      },
      { term: 'find', text: '{"command": "find", "paths": [PATH…], "more"}.' },
      { term: 'completions', text: '{"command": "completions", "shell", "script"}.' },
      {
        term: 'help, --help',
        text:
          '{"command": "help", "version", "globalOptions", "commands"}: the definitions of every command, or of ' +
          'the one asked for (see rt help above); rt help agents: {"command": "help", "topic": "agents", ' +
          '"guide"}.',
      },
      { term: '--version', text: '{"version"}.' },
      {
        term: 'errors',
        text:
          '{"error": {"code", "message", "hints": [TEXT…], "exit", …details}}, where "code" is one of usage, ' +
          'input, stale, unshown, exists, not_found, binary, outside_root, access or internal.',
      },
    ],
  },
  {
    title: 'ENVIRONMENT',
    body: [
      'One rule for the variables that turn something on or off (RT_DIFF, RT_READONLY, RT_STATE, RT_CHECK, ' +
        'RT_RIPGREP, RT_GIT_GREP, RT_DEBUG): 0, false, no or off, in any case, turn it off; any other value ' +
        'turns it on; unset or empty, it is as rt does by default (on for RT_STATE, RT_CHECK, RT_RIPGREP and ' +
        'RT_GIT_GREP, off for the others). Any variable set empty is as if unset.',
      { term: 'RT_ROOT', text: 'The root, as --root.' },
      {
        term: 'RT_WINDOW',
        text:
          'Lines per window when --window is not given (default 100); like --window, it is also the most lines ' +
          'a range of open shows (default 200). Unlike --window, scroll does not remember it for the file.',
      },
      { term: 'RT_DIFF', text: '1 (or any value but 0, false, no, off): edits print a unified diff, as --diff.' },
      {
        term: 'RT_READONLY',
        text: '1 (as RT_DIFF): refuse every command that would write a file (exit 4); --dry-run still works.',
      },
      {
        term: 'RT_STATE',
        text:
          'off (or 0, false, no): keep no state; rt says so once on standard error, naming what it gives up. ' +
          'LIDs are then those of a fresh reading (LINE IDS), so an LID still names its own line or is refused. ' +
          'Given up: the check that edited, deleted and insert-anchor lines were shown (ANCHORS), so an LID ' +
          'remembered from long ago is taken as it is; line numbers as anchors (refused unless --force); the ' +
          "LID history, so a line new to the file may by rare chance take a changed line's old LID (LINE IDS); " +
          'the last view, so scroll starts at the top.',
      },
      {
        term: 'RT_SESSION',
        text:
          'A name (letters, digits, ., _ and -, at most 64 characters) that gives one of several agents working ' +
          'in one root its own session: its own view state, that is what counts as shown (ANCHORS) and the last ' +
          'window scroll goes on from. The index of each file (its LIDs), the locks and the files themselves ' +
          'are shared by all. Unset or empty: the one shared session. A name of other characters is refused ' +
          '(exit 2).',
      },
      {
        term: 'RT_RIPGREP',
        text:
          'off: never use ripgrep (grep -P, which ripgrep matches, is then refused). When rg is installed, ' +
          'searches of folders use it: a case-sensitive literal (grep -F) without -w takes its line numbers, ' +
          'which for such a literal are the lines rt would find, and rt reads only the files it prints. ' +
          'Otherwise ripgrep is given a translation of the pattern into its dialect that matches at least every ' +
          'line the JavaScript pattern does (what the translation does not follow, such as lookarounds, \\b or ' +
          '\\p{…}, is widened to match anything; a literal with -i or -w is translated as a pattern, since rt ' +
          'then matches it on text, where a byte that is not UTF-8 reads as U+FFFD); it prints those lines, and ' +
          'rt matches its pattern in them, reading only the files it prints (a file with more than 4,096 of ' +
          'them, rt searches whole). A regular expression is given to ripgrep only when every match holds at ' +
          'least three bytes of literal text in a row (use[A-Z]\\w+, parse\\s*\\(, foo|barbaz; not \\w+ or ' +
          "a|bc). Either way the files searched are rt's own choice (git's list, .ignore files, no binary " +
          'files): ripgrep reads no global excludes file (git may name another than the one it would read), and ' +
          "rt asks git about the untracked files it found. What ripgrep's walk leaves out by rules of its own " +
          "(.rgignore files, its reading of .gitignore patterns, which is not git's), it names in its --debug " +
          'log: rt asks git what it lists there and searches those files too (when the log runs long, past 64 ' +
          'paths left out or 128 lines, ripgrep is stopped and git grep answers, as with RT_RIPGREP=off; ' +
          'outside git, ripgrep reads no ignore file). The output is the same as with RT_RIPGREP=off.',
      },
      {
        term: 'RT_GIT_GREP',
        text:
          'off: never use git grep. Where ripgrep is not used (not installed, or RT_RIPGREP=off), a search of ' +
          'folders in a git work tree asks git grep for the lines that may match, and rt matches its pattern in ' +
          'the lines git prints, reading only the files it prints. A regular expression (or, with -i or -w, a ' +
          'literal) goes to git grep -P as a translation into PCRE on bytes that matches at least every line ' +
          'the JavaScript pattern does (as for ripgrep; with -i, s and k also take ſ and the Kelvin sign, which ' +
          'JavaScript folds into them); where git has no PCRE, or stops on the pattern, git grep -F is asked ' +
          'for the lines holding the literal texts every match holds (the string of -F; use and tate for ' +
          'use[A-Z]tate; with -i, runs of ASCII letters but s and k), at least three bytes of them. git grep ' +
          'reads the files git tracks; rt reads itself the untracked files git lists, and tracked files git ' +
          'grep would not read from the work tree (assume-unchanged, skip-worktree, conflicted). Not used with ' +
          '--no-ignore. The output is the same as with RT_GIT_GREP=off.',
      },
      { term: 'RT_CHECK', text: 'off (or 0, false, no): write without the syntax check (LANGUAGES), as --no-check.' },
      {
        term: 'RT_INDENT',
        text: 'auto: edit, insert and apply shift their new lines to the indentation around them, as --indent auto.',
      },
      { term: 'RT_DEBUG', text: '1 (as RT_DIFF): print stack traces with errors.' },
      {
        term: 'NODE_EXTRA_CA_CERTS',
        text:
          'Dropped by the launcher (bin/rt.cjs, run by the shell first): Node reads that certificate file at ' +
          'every start, some 40 ms where it is set, and rt makes no network connection. Programs rt runs (git, ' +
          'rg) do not see it either; neither uses it for local work.',
      },
      { term: 'NO_COLOR', text: 'Any non-empty value: no colour (unless --color always).' },
      {
        term: 'FORCE_COLOR',
        text:
          'Colour even when standard output is not a terminal (1, 2 or 3 for 16, 256 or 16 million colours; 0 ' +
          'for none), unless NO_COLOR or --color never. Without either, colour is used only when standard ' +
          'output is a terminal whose TERM is not dumb. Colour never changes the text, and --json is never ' +
          'coloured.',
      },
    ],
  },
  {
    title: 'FILES',
    body: [
      "A file's state lives in the .rt/ of its own nearest root: the nearest folder above the file (not above " +
        'the working directory) that holds .git or .rt, inside the root, else the root. A nested repository or ' +
        'a submodule keeps its own, so rt run from the parent repository and from the nested one reads and ' +
        'writes the same index and views of a file. A --root (or RT_ROOT) below a repository makes that folder ' +
        'a root, with its own .rt/, which later runs from above then use for the files below it (the index kept ' +
        'above for them is left unused, and swept after 30 days). It is a cache: deleting it loses the view ' +
        'history and the LID history, and a fresh start gives the same LIDs for the same content (LINE IDS). ' +
        'Paths inside any .rt/ folder are refused.',
      {
        term: '.rt/.gitignore',
        text: 'Holds "*", so the folder ignores itself; the user\'s .gitignore is never touched.',
      },
      {
        term: '.rt/pack/pack-NUMBER.jsonl',
        text:
          "Every file's line index and view state, packed: .rt/pack holds a few segment files however many " +
          'files rt has shown (a search showing hits in 10,000 files adds one). A segment is JSON lines, readable ' +
          'with standard tools (jq -c, grep): a header line, one state document a line, a table of what it holds ' +
          '(each key, as index:PATH, view:PATH or view~SESSION:PATH, with its place, the number of the save that ' +
          'wrote it, its time and a digest), and a last line giving where the table starts and its digest. A ' +
          'command adds what it saved as one new segment at its end (a write, before it prints new LIDs), ' +
          'under a name no other segment holds: a kill at any moment leaves the whole segment or none of it. ' +
          "A key's newest entry wins; when another rt saved the same view meanwhile, what this one showed is " +
          'recorded on top of it; an index is kept only while its file is still the version it describes. ' +
          'Segments are never changed: past eight, the smallest are merged into one, and a segment holding ' +
          'nothing live is removed, so a save costs what it saved. A line index is one document in three ' +
          "parts: a head (the file's stamp: size, times, inode; byte offsets every 1,024 lines; a digest of " +
          "each 1,024 lines' records; a digest of the head itself), then its lines' fingerprints and LIDs (16 " +
          'base64 characters a line), then the LIDs retired from it. A window of an unchanged file reads the head ' +
          'and the records of its own lines, each part checked against its digest, and only the bytes of the ' +
          'file it shows. An index written by another version of rt is replaced without a word.',
      },
      {
        term: '.rt/set-aside/',
        text:
          'A segment whose table does not check is moved here whole; a state document that did not parse, ' +
          'failed a digest check or described another file is copied here and forgotten (with a warning), and ' +
          'rebuilt.',
      },
      'If the root is not writable, or .rt is not a plain folder, rt works without saving state and says so ' +
        'once. State of files not touched in 30 days is dropped (an index is kept while its file is viewed), at ' +
        'the first save of a day; the per-file .rt/index and .rt/view folders of earlier versions go then too.',
    ],
  },
  {
    title: 'LANGUAGES',
    body: [
      `Before every write (edit, insert, delete, create, apply), a file in a language rt knows is parsed as ` +
        `it is and as it would be; a syntax error the new content has that the old did not is refused (exit 5, ` +
        `nothing written), each printed as NUMBER:LID|CONTENT with what is wrong (what was unexpected or ` +
        `missing), the five nearest the change first and a count of the rest. Errors already in the file never ` +
        `block, nor does an error an edit only moves. A change that passes through a broken state is made as ` +
        `one rt apply: its check sees the final content. --no-check or RT_CHECK=off writes without it. The same ` +
        `parse gives rt outline and rt open PATH:@NAME.`,
      {
        term: 'Languages',
        text:
          'JavaScript (.js .mjs .cjs .jsx), TypeScript (.ts .mts .cts), TSX, JSON (.json; with comments and ' +
          'trailing commas, as their tools read them, for tsconfig*.json, jsconfig*.json, babel.config.json, ' +
          '.babelrc, .babelrc.json, .eslintrc, .eslintrc.json, .swcrc, renovate.json, .renovaterc, ' +
          'devcontainer.json, .vscode/, .devcontainer/ and .codesandbox/ *.json, and a .json file that already ' +
          'has comments; JSON5 for .json5), Python, Go, Rust, Java, C, C++ (a .h file is C unless it reads as ' +
          'C++), C#, Ruby, PHP, Bash (.sh .bash, shell start-up files, and #! lines naming sh, bash or dash), ' +
          'CSS and YAML. A file without a known extension is looked up by its #! line (python3, node, ruby, ' +
          'php, bash…). Other files are not checked.',
      },
      {
        term: 'Grammars',
        text:
          'tree-sitter (web-tree-sitter 0.27.1) with the WebAssembly grammars of @vscode/tree-sitter-wasm ' +
          '0.3.1, tree-sitter-c 0.24.1 and @tree-sitter-grammars/tree-sitter-yaml 0.7.1, shipped in ' +
          'dist/grammars/; JSON is read by jsonc-parser 3.3.1, JSON5 by json5 2.2.3. Only the grammar of the ' +
          'file at hand is loaded, and only by the commands that write or outline: other commands start as ' +
          'before.',
      },
      {
        term: 'Limits',
        text:
          'Files over 16 MB, more than 1 MB of text to parse (minified lines), and a parse taking more than 1 s ' +
          'of CPU time are not checked: rt says so in one line and writes. A file over 3,000 lines is parsed ' +
          'around the change (400 lines each side, cut before unindented code after a blank line; a PHP window ' +
          'is read after a `<?php` put at its start), and a new error found there refuses unless the whole file ' +
          'clears it; a file too long (over 1 MB of text) or too slow to confirm it whole is refused, saying ' +
          'so. There, damage that shows only beyond those lines, or an edit near a cut that falls inside a ' +
          'multi-line string or comment, can pass. A grammar that cannot be loaded, or anything that fails ' +
          "inside a check (a parser's stack overflow on text nested thousands deep), never blocks a write: rt " +
          'says so in one line and writes. YAML with template tags (ERB, Go templates, Jinja) is not checked.',
      },
      {
        term: 'Trust',
        text:
          'A grammar older than the language may take valid new syntax for an error. In JavaScript and ' +
          "TypeScript, TypeScript's own parser (dist/typescript.cjs, loaded only then; it parses, never emits) " +
          'is asked before a refusal, and has the last word; it also judges a change to a file that the grammar ' +
          'reads with errors and it reads clean (a valid file the grammar misreads). In C, C++, C# and CSS, ' +
          'whose grammars misread macros, #if sections and recent syntax often, a new error refuses a change ' +
          "only if the change also unbalances the file's brackets. Counted on the current files of 18 public " +
          'repositories (27,844 files), and on 15,540 edits that put real code back into them, 7 edits (0.05%) ' +
          'were refused wrongly: in C and C++ files that are not code to a grammar on their own (fragments made ' +
          'to be included, macros that open blocks) and one Bash file; --no-check writes them.',
      },
      {
        term: 'Own parsers',
        text:
          "For Python, shell scripts and Rust, the language's own parser is asked before a refusal, parsing " +
          'only, the text on its standard input, for 5 s at most: python3 (compile(), nothing run), bash -n (sh ' +
          '-n for a #!/bin/sh script), rustfmt (edition 2024, its output ignored). What it accepts is written; ' +
          'an error it finds that the old content did not have refuses. Where the grammar finds errors in the ' +
          'old content that the own parser does not (syntax newer than the grammar), the own parser judges the ' +
          'change alone. With no answer (not on PATH, too slow), a Python change is refused only for the errors ' +
          'below, a Rust change only if it also unbalances brackets, a shell change as the grammar says.',
      },
      {
        term: 'Python',
        text:
          'Checked in-process on every Python file, as errors like any other: a dedent to no outer indentation ' +
          'level, a block header (a line ending in :) without its indented block, an unexpected indent, tabs ' +
          'and spaces mixed inconsistently (indentation measured with tabs of 8 and of 1 column must order ' +
          "lines alike), brackets that do not close or match, unterminated strings; and compile()'s rules on " +
          'return, yield, await, break and continue outside their blocks, arguments out of order, `as` and ' +
          'future imports out of place.',
      },
    ],
  },
  {
    title: 'EXIT STATUS',
    body: [
      { term: '0', text: 'Success.' },
      { term: '1', text: 'Nothing found (search commands).' },
      {
        term: '2',
        text: 'Bad usage or input: an unknown command or option, a missing argument, a line past the end of the file.',
      },
      { term: '3', text: 'A stale or conflicting anchor: an LID no longer in the file. Nothing was written.' },
      {
        term: '4',
        text:
          'File access refused or failed: missing, binary, a directory, outside the root, permission. Nothing ' +
          'was written.',
      },
      {
        term: '5',
        text: 'The change would leave a file with a syntax error it did not have (LANGUAGES). Nothing was written.',
      },
      'Errors and warnings go to standard error, each line starting with "rt: ", and say what to run instead.',
      'A command line is checked whole before any file is looked at: one with a bad option value (exit 2) and a ' +
        'missing file is refused for the option, and of several bad option values the first in the ' +
        "command's table of options is named.",
    ],
  },
];

export function renderManPage(commands: readonly CommandSpec[], version: string): string {
  const out: string[] = [];
  out.push(`.TH RT 1 "" "rt ${version}" "User Commands"`);
  out.push('.SH NAME', 'rt \\- read, search and edit text files by persistent line IDs');
  out.push('.SH SYNOPSIS');
  for (const c of commands) out.push(`.B rt ${c.name}`, roff(synopsisArgs(c)), '.br');
  out.push('.B rt help', '[\\fICOMMAND\\fR | \\fBagents\\fR]');
  for (const section of OVERVIEW) renderSection(out, section);
  out.push('.SH COMMANDS');
  for (const c of [...commands, HELP_COMMAND]) renderCommand(out, c);
  out.push('.SH GLOBAL OPTIONS');
  for (const o of GLOBAL_OPTIONS) renderOption(out, o);
  out.push('.TP', '.BR \\-h ", " \\-\\-help', 'Show help (also: rt help COMMAND).');
  out.push('.TP', '.BR \\-V ", " \\-\\-version', 'Print the version (with --json: {"version": VERSION}).');
  for (const section of TRAILER) renderSection(out, section);
  return `${out.join('\n')}\n`;
}

/** A section of the page as plain text, by its title (ANCHORS), for rt mcp's help tool. */
export function sectionText(title: string): string | undefined {
  const section = [...OVERVIEW, ...TRAILER].find((s) => s.title === title);
  if (!section) return undefined;
  const text = (b: Block) => (typeof b === 'string' ? b : 'example' in b ? b.example : `${b.term}: ${b.text}`);
  return section.body.map(text).join('\n\n');
}

function synopsisArgs(c: CommandDoc): string {
  const opts = c.options.map((o) => `[--${o.long}${o.value ? ` ${o.value}` : ''}]`);
  const args = c.args.map(
    (a) => (a.required ? a.name.toUpperCase() : `[${a.name.toUpperCase()}]`) + (a.variadic ? '...' : ''),
  );
  return [...opts, ...args].join(' ');
}

function renderSection(out: string[], section: Section): void {
  out.push(`.SH ${section.title}`);
  for (const block of section.body) renderBlock(out, block);
}

function renderBlock(out: string[], block: Block): void {
  if (typeof block === 'string') out.push('.PP', roff(block));
  else if ('example' in block) out.push('.PP', '.RS 4', '.nf', ...block.example.split('\n').map(roff), '.fi', '.RE');
  else out.push('.TP', `.B ${roff(block.term)}`, roff(block.text));
}

function renderCommand(out: string[], c: CommandDoc): void {
  out.push(`.SS rt ${c.name} ${roff(synopsisArgs(c))}`);
  out.push('.PP', roff(`${capitalise(c.summary)}.`));
  for (const p of c.description) out.push('.PP', roff(p));
  for (const a of c.args)
    out.push(
      '.TP',
      `.I ${a.name.toUpperCase()}`,
      roff(a.summary + (a.choices ? ` (one of: ${a.choices.join(' ')})` : '')),
    );
  for (const o of c.options) renderOption(out, o);
  if (c.readsStdin) out.push('.PP', 'Reads its text from standard input (a quoted heredoc).');
  if (c.examples.length) {
    out.push('.PP', 'Examples:', '.RS 4');
    for (const e of c.examples) out.push('.TP', `.B ${roff(e.command)}`, roff(capitalise(e.explains)) + '.');
    out.push('.RE');
  }
  out.push('.PP', 'Exit status:', '.RS 4');
  for (const [code, meaning] of c.exits) out.push('.TP 4', `.B ${code}`, roff(capitalise(meaning)) + '.');
  out.push('.RE');
}

function renderOption(out: string[], o: OptionSpec): void {
  const names = [o.short ? `\\-${o.short}` : '', `\\-\\-${o.long}`].filter(Boolean).join(', ');
  out.push('.TP', `.B ${names}${o.value ? ` \\fI${o.value}\\fR` : ''}`);
  out.push(roff(`${capitalise(o.summary)}${o.env ? ` (environment: ${o.env})` : ''}.`));
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Escapes text for roff: backslashes, and a leading dot or quote that would start a request. */
export function roff(text: string): string {
  const escaped = text.replace(/\\/g, '\\e').replace(/-/g, '\\-');
  return /^[.']/.test(escaped) ? `\\&${escaped}` : escaped;
}
