/** Built-in context engines. */
export * from './legacy';
