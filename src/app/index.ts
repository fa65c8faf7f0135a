// the package facts live in src/common (src/replay stamps them on a Recording); re-exported for the shells and the CLI
export { PACKAGE_NAME, PACKAGE_VERSION } from '../common';
export { describeApp, describeHealth, type AppEnvironment } from './describeApp';
