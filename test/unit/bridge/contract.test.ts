import { describe, expect, it } from 'vitest';
import { createSchemaCompiler, eventTopics, METHOD_NAME_PATTERN, methods } from '../../../src/bridge';

describe('the InspectorApi contract', () => {
  const compile = createSchemaCompiler();

  it('names every method <namespace>.<name> (the only names the preload forwards)', () => {
    const badNames = Object.keys(methods).filter((name) => !METHOD_NAME_PATTERN.test(name));
    expect(badNames).toEqual([]);
  });

  it('gives every method a request schema, a response schema and a summary that compile under strict ajv', () => {
    for (const [name, spec] of Object.entries(methods)) {
      expect(() => compile(spec.request), `${name} request`).not.toThrow();
      expect(() => compile(spec.response), `${name} response`).not.toThrow();
      expect(spec.summary.length, `${name} summary`).toBeGreaterThan(10);
    }
  });

  it('gives every event topic a payload schema that compiles', () => {
    for (const [topic, schema] of Object.entries(eventTopics)) {
      expect(() => compile(schema), topic).not.toThrow();
    }
  });

  it('accepts a progress payload with an unknown total and rejects a negative count', () => {
    const check = compile(eventTopics.progress);
    expect(check({ taskId: 'load-1', phase: 'parse', done: 0, total: null })).toBeNull();
    expect(check({ taskId: 'load-1', phase: 'parse', done: -1, total: 10 })).toMatchObject({ path: '/done' });
  });
});
