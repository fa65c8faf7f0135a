/** What the utility-process transport and its adapter module agree on (no Electron import: both sides use it). */

/** The adapter's file name next to the main bundle (out/main/engine-host-utility.js). */
export const UTILITY_ENGINE_HOST_FILE = 'engine-host-utility.js';

/** The adapter reads the engine-host entry from the argument after this flag. */
export const ENGINE_HOST_ENTRY_FLAG = '--contextscope-engine-host-entry';
