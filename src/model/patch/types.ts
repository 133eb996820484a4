// What a patch says, as parsed: the files it changes, in patch order, each with its
// hunks. Every part remembers its 1-based line in the patch, for messages. Text is kept as
// bytes: a `+` row is taken byte for byte, whatever its encoding.

import type { Anchor } from '../anchor.js';

/** A row of a context hunk: ` ` context, `-` removed, `+` added; `text` without the tag. */
export interface PatchRow {
  readonly tag: ' ' | '-' | '+';
  readonly text: Buffer;
  /** 1-based line of the row in the patch. */
  readonly line: number;
}

export type PatchHunk =
  /** `@@ edit FROM [TO]` (rows: the new lines) or `@@ delete FROM [TO]` (no rows). */
  | {
      readonly kind: 'range';
      readonly op: 'edit' | 'delete';
      readonly line: number;
      readonly from: Anchor;
      readonly to: Anchor;
      readonly rows: readonly Buffer[];
    }
  /** `@@ insert before AT` / `@@ insert after AT`. */
  | {
      readonly kind: 'insert';
      readonly line: number;
      readonly at: Anchor;
      readonly after: boolean;
      readonly rows: readonly Buffer[];
    }
  /**
   * `@@ edit @NAME` (rows: the new lines), `@@ delete @NAME`, `@@ insert before @NAME`, `@@ insert after @NAME`:
   * the whole range of the definition NAME (from its first decorator, attribute or doc comment to its last line),
   * found in the file as read under its lock.
   */
  | {
      readonly kind: 'symbol';
      readonly op: 'edit' | 'delete' | 'before' | 'after';
      readonly line: number;
      readonly name: string;
      readonly rows: readonly Buffer[];
    }
  /** An apply_patch hunk: `@@` or `@@ TEXT`, then rows; located by content. */
  | {
      readonly kind: 'context';
      readonly line: number;
      readonly header: Buffer | undefined;
      readonly rows: readonly PatchRow[];
      readonly endOfFile: boolean;
    };

export type FileChange =
  | {
      readonly kind: 'update';
      readonly line: number;
      readonly path: string;
      readonly moveTo: { readonly path: string; readonly line: number } | undefined;
      readonly hunks: readonly PatchHunk[];
    }
  /**
   * `*** Add File`: `lines` are the new file's lines (each ends with a newline when written);
   * `bytes`, when given (by `rt create`), the new file exactly.
   */
  | {
      readonly kind: 'add';
      readonly line: number;
      readonly path: string;
      readonly lines: readonly Buffer[];
      readonly bytes?: Buffer;
    }
  | { readonly kind: 'delete'; readonly line: number; readonly path: string };
