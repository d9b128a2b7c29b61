/**
 * Store `roo-tasks`: the tasks of Roo Code (`rooveterinaryinc.roo-cline`), a fork of Cline that kept its
 * task layout under its own globalStorage folder (README.md beside this file). Read as Cline's legacy tasks
 * are, with Roo Code's history items (`tasks/<id>/history_item.json`, `tasks/_index.json`).
 */
import { readLegacyTasks } from '../shapes/legacy-tasks.js';
import type { Reader } from '../shapes/rows.js';

/** Rows of one Roo Code globalStorage task store; see readLegacyTasks. */
export const readRooTasks: Reader = readLegacyTasks;
