/**
 * Public API of src/config: finding openclaw.json, reading it (JSON5, $include, raw mode), lossless edits,
 * validation as OpenClaw validates, preview and guarded save with backups, and try-before-save lanes.
 */
export { locateOpenClawConfig, openClawConfigTarget, readOpenClawConfigFile } from './locateConfig';
export { ConfigPathError, formatConfigPath, parseConfigPath, pointerToPath, type ConfigPath } from './configPath';
export {
  lineColumnAt,
  locatePath,
  parseJson5Document,
  type Json5Document,
  type Json5SyntaxProblem,
} from './json5Document';
export { applyToValue, ConfigEditError, editText, planSet, planUnset, sameValue, type ValueEdit } from './json5Edit';
export { deepMerge, INCLUDE_KEY, includeOwnerOf, resolveIncludes, type IncludedFile } from './configIncludes';
export {
  knownEngines,
  SLOT_DEFAULTS,
  validateOpenClawConfig,
  type ConfigIssue,
  type ConfigIssueSeverity,
  type ValidationContext,
} from './validateConfig';
export {
  describeEdit,
  diffEdits,
  expandChange,
  OperationError,
  valueAt,
  type ConfigChange,
  type ExpandedChange,
} from './configOperations';
export {
  applyChanges,
  readConfigSnapshot,
  snapshotOfText,
  type ConfigEnvironment,
  type ConfigSnapshot,
  type LocatedIssue,
} from './configSnapshot';
export { pathChanges, textDiff, type PathChange } from './configDiff';
export {
  listConfigBackups,
  previewConfig,
  restoreConfigBackup,
  saveConfig,
  type ConfigBackup,
  type ConfigInput,
  type ConfigPreview,
  type SaveOptions,
  type SaveOutcome,
} from './configSave';
export { buildTryLanes, type TryLane, type TryLanes } from './tryLanes';
