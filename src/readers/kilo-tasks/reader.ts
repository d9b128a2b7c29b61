/**
 * Store `kilo-tasks`: the tasks of Kilo Code (`kilocode.kilo-code`), a fork of Roo Code that kept Cline's
 * task layout under its own globalStorage folder (README.md beside this file). Read as Cline's legacy
 * tasks are, with the history items it took from Roo Code.
 */
import { readLegacyTasks } from '../shapes/legacy-tasks.js';
import type { Reader } from '../shapes/rows.js';

/** Rows of one Kilo Code globalStorage task store; see readLegacyTasks. */
export const readKiloTasks: Reader = readLegacyTasks;
