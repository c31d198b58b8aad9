/**
 * Vitest setupFiles: marks, in the recording of sent properties, each test file that runs (skipped whole or
 * not), so that tests/contract/sent-properties.test.ts knows whether the recording holds every contract
 * file's answers. Vitest runs this before each file, in the file's worker.
 */
import { expect } from 'vitest';
import { recordSentProperties, testFileName } from './api-calls.ts';

const path = expect.getState().testPath;
if (!path) throw new Error('Vitest gave no test file path');
recordSentProperties({ kind: 'file', file: testFileName(path) });
