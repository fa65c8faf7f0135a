import { Type } from '@sinclair/typebox';

/** `schema` or null. */
export const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);
export const NonNegInt = Type.Integer({ minimum: 0 });
