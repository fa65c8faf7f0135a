export { PACKAGE_NAME, PACKAGE_VERSION } from './packageInfo';
export { describeApp, describeHealth, type AppEnvironment } from './describeApp';
