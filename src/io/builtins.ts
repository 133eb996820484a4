// Node modules that cost start-up time to load (child_process pulls in streams and more),
// loaded the first time a command uses them rather than by every run.

export const childProcess = () => process.getBuiltinModule('node:child_process');

export const zlib = () => process.getBuiltinModule('node:zlib');

export const crypto = () => process.getBuiltinModule('node:crypto');
