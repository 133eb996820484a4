// Every command rt has, in the order help lists them.

import type { CommandSpec } from '../spec.js';
import { openCommand } from './open.js';
import { scrollCommand } from './scroll.js';

export const COMMANDS: readonly CommandSpec[] = [openCommand, scrollCommand];
