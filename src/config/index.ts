/** Public API of src/config: finding and reading openclaw.json. */
export { locateOpenClawConfig, readOpenClawConfigFile } from './locateConfig';
