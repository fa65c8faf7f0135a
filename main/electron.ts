/** Electron main-process entry (built to out/main/electron.js, the package's "main"). */
import { startElectronShell } from './electron/shell';
import { errorStack } from '../src/common/errorText';

startElectronShell({ mainDir: import.meta.dirname }).catch((error: unknown) => {
  console.error(`ContextScope could not start: ${errorStack(error)}`);
  process.exit(1);
});
