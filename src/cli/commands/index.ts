// Every command rt has, in the order help lists them.

import type { CommandSpec } from '../spec.js';
import { applyCommand } from './apply.js';
import { historyCommand } from './history.js';
import { mcpCommand } from './mcp.js';
import { redoCommand } from './redo.js';
import { refsCommand } from './refs.js';
import { renameCommand } from './rename.js';
import { undoCommand } from './undo.js';
import { completionsCommand } from './completions.js';
import { createCommand } from './create.js';
import { deleteCommand } from './delete.js';
import { editCommand } from './edit.js';
import { findCommand } from './find.js';
import { grepCommand } from './grep.js';
import { grepFileCommand } from './grepFile.js';
import { insertCommand } from './insert.js';
import { openCommand } from './open.js';
import { outlineCommand } from './outline.js';
import { replaceCommand } from './replace.js';
import { scrollCommand } from './scroll.js';

export const COMMANDS: readonly CommandSpec[] = [
  openCommand,
  scrollCommand,
  outlineCommand,
  findCommand,
  grepCommand,
  grepFileCommand,
  editCommand,
  insertCommand,
  deleteCommand,
  createCommand,
  applyCommand,
  replaceCommand,
  refsCommand,
  renameCommand,
  undoCommand,
  redoCommand,
  historyCommand,
  mcpCommand,
  completionsCommand,
];
