import { Type, type TSchema } from '@sinclair/typebox';

/** One bridge method: the schema its params must satisfy and the schema its result satisfies. */
export interface MethodSpec<Req extends TSchema = TSchema, Res extends TSchema = TSchema> {
  request: Req;
  response: Res;
  /** One sentence for people reading the contract (shown in errors and docs). */
  summary: string;
}

export type MethodSpecs = Record<string, MethodSpec>;

/** Identity helper that keeps the literal method names and schema types of a namespace file. */
export function defineMethods<const T extends MethodSpecs>(specs: T): T {
  return specs;
}

/** Params of a method that takes none. Clients send `{}` (or omit params, which is read as `{}`). */
export const NoParams = Type.Object({}, { additionalProperties: false });
