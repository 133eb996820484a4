// The guide for agents: `rt help agents`, and the README section generated from it. Short
// enough to paste into a system prompt.

export const AGENT_GUIDE = `rt — read, search and edit files by line ID (LID). Every line rt shows is
NUMBER:LID|CONTENT. Edit by naming LIDs; never retype old text.

Read:
  rt open FILE                 first 100 lines        rt open FILE:120      centred on 120
  rt open FILE:40-80           a range                rt open FILE:kq3f     centred on an LID
  rt open FILE:120:kq3f        a grep hit, as printed (refused if kq3f moved)
  rt scroll FILE [+|-]         next / previous window (2 lines overlap)
  rt outline FILE              definitions, with LIDs   rt open FILE:@Cart.add   one, whole
Search (hits carry LIDs you can edit at once; -p adds the definition around hits, with =):
  rt grep [-F] [-i] [-w] [-C N] [-p] [-g GLOB] PATTERN [PATH...]  → PATH:NUMBER:LID|CONTENT
  rt grep-file PATTERN FILE    rt find GLOB-OR-SUBSTRING [DIR]
  rt refs FILE:@NAME           the definition and every reference (TS/JS by type, else by name)
Edit (text from a quoted heredoc, byte for byte; one trailing newline dropped):
  rt edit FILE FROM [TO] <<'EOF'        replace lines FROM..TO (LIDs)
  ...new lines...
  EOF
  rt insert FILE LID [--after] <<'EOF'  insert before (after) a line; '$' appends
  rt delete FILE FROM [TO]              delete lines
  rt create FILE <<'EOF'                new file (--force replaces; --empty: empty)
  rt edit FILE:@Cart.add <<'EOF'        a definition whole, once shown (delete, insert too)
Many edits in many files, all or nothing (every anchor as you read it):
  rt apply <<'EOF'
  *** Update File: src/a.ts
  @@ edit kq3f mw7a             (also: @@ insert before|after LID, @@ delete FROM [TO])
  +new line                     (each new line is a + row; a bare + is an empty line)
  *** Add File: src/b.ts        (also: *** Delete File: P, *** Move to: P)
  EOF                           apply_patch hunks (@@ TEXT, then ' '/-/+ rows) work too
Across the project, as one step (--dry-run to preview, --expect N to be sure):
  rt replace [-F] [-w] [--in code] PATTERN REPLACEMENT [PATH...]    rt rename FILE:@NAME NEWNAME
rt undo steps back your last write if nothing changed the file since (rt redo, rt history).
Rules:
- Name lines by LID (kq3f) or NUMBER:LID (101:kq3f); a bare number must still name the line.
- After an edit, LIDs of unchanged lines stay valid: make several edits top to bottom
  from one read. The edit prints the changed region with fresh LIDs.
- Exit 3 = stale: the line changed since you saw it. Nothing was written; re-open
  the lines named in the message and retry with the new LIDs.
- You may only replace lines, or insert beside a line, that rt has shown you in that
  file (a window, a hit or an edit's region). An LID names its own line or is refused.
- Exit 5 = the change would break the file's syntax (errors already there never count);
  a change broken in between goes through as one rt apply. Exit codes: 0 ok, 1 nothing
  found, 2 bad usage, 3 stale, 4 access refused; 2-5 write nothing. --diff, --dry-run.
`;
