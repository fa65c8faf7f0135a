/** The Recording schema (typebox): one document per replay; types derived from the schemas. */
export * from './basics';
export * from './events';
export * from './turnRecord';
export * from './recording';
export * from './wire';
export * from './trajectory';
export * from './encodedTurn';
