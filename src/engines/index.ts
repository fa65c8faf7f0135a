/** Built-in context engines, and the context runtime that has them built in. */
export { createContextRuntime } from './createContextRuntime';
export * from './legacy';
