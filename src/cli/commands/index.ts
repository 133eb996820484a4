// Every command rt has, in the order help lists them.

import type { CommandSpec } from '../spec.js';
import { createCommand } from './create.js';
import { deleteCommand } from './delete.js';
import { editCommand } from './edit.js';
import { insertCommand } from './insert.js';
import { openCommand } from './open.js';
import { scrollCommand } from './scroll.js';

export const COMMANDS: readonly CommandSpec[] = [openCommand, scrollCommand, editCommand, insertCommand, deleteCommand, createCommand];
