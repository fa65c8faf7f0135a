export { errorMessage, errorStack, toError } from './errorText';
export { asRecord, isRecord } from './guards';
export {
  ABSENT_FILE_HASH,
  contentHash,
  defaultBackupDir,
  FileChangedError,
  listBackups,
  resolveWriteTarget,
  SymlinkRefusedError,
  writeFileAtomic,
  type BackupOptions,
  type WriteFileAtomicOptions,
  type WriteFileAtomicResult,
} from './writeFileAtomic';
export { writeChunksAtomic } from './writeChunksAtomic';
export { PACKAGE_NAME, PACKAGE_VERSION } from './packageInfo';
