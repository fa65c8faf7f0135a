/**
 * ContextScope as a library: OpenClaw's context-engine runtime, the legacy engine and built-in compaction,
 * transcripts, token estimators, the plugin loader and the replay host, under OpenClaw's names where they exist.
 * See the README's "Library API" section.
 */
export * from './contract';
export * from './runtime';
export * from './transcripts';
export * from './tokens';
export * from './summarize';
export * from './engines';
export * from './plugins';
export * from './replay';
