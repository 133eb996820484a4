// Node modules that cost start-up time to load (child_process and crypto pull in streams and
// more), loaded the first time a command uses them rather than by every run.

export const childProcess = () => process.getBuiltinModule('node:child_process');

export const sha256 = () => process.getBuiltinModule('node:crypto').createHash('sha256');
