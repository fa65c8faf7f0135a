// the package facts live in src/common (src/replay stamps them on a Recording); re-exported for the shells and the CLI
export { PACKAGE_NAME, PACKAGE_VERSION } from '../common';
export { describeApp, describeHealth, type AppEnvironment } from './describeApp';
export {
  createRecentRecordings,
  MAX_RECENT_BYTES,
  MAX_RECENT_RECORDINGS,
  recentRecordingsDir,
  type RecentRecordings,
  type RecentRecordingsOptions,
  type RecordingMeta,
} from './recentRecordings';
export { chooseStateDir, readWorkspace, workspaceSettingsFile, type WorkspaceEnvironment } from './workspaceSettings';
export {
  createConsentBroker,
  pluginAt,
  type ConsentBroker,
  type ConsentBrokerOptions,
  type ConsentOffer,
  type ConsentPrompt,
  type ConsentSubjectInfo,
} from './consentBroker';
export {
  createConfigEditor,
  type ConfigEditor,
  type ConfigEditorOptions,
  type ConfigEditRequest,
  type ConfigLocation,
  type ConfigRestoreRequest,
} from './configEditor';
export { describeConfigSnapshot } from './describeConfigSnapshot';
export { pluginConsentInfo } from './pluginConsentInfo';
