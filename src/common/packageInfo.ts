import packageJson from '../../package.json';

/** Name and version of this build, taken from package.json at build time (bundlers inline the JSON). */
export const PACKAGE_NAME: string = packageJson.name;
export const PACKAGE_VERSION: string = packageJson.version;
