/**
 * A TurnRecord as recording files (format 2) and `replay.stream` pages carry it: `assembled` and
 * `asSent.messages` may be deltas against the same lane's previous turn — `{delta: [[from, to) of the previous
 * list | an item, …]}` (src/view/listDelta.ts encodes and decodes them).
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { AssembledRefSchema } from './basics';
import { NonNegInt } from './schemaHelpers';
import { RecordingSchema } from './recording';
import { TurnRecordSchema } from './turnRecord';
import { WireMessageSchema, WireViewSchema } from './wire';

const listOrDelta = <T extends TSchema>(item: T) =>
  Type.Union([
    Type.Array(item),
    Type.Object(
      { delta: Type.Array(Type.Union([Type.Tuple([NonNegInt, NonNegInt]), item])) },
      { additionalProperties: false },
    ),
  ]);

const { assembled: _assembled, asSent: _asSent, ...turnFields } = TurnRecordSchema.properties;
const { messages: _messages, ...wireFields } = WireViewSchema.properties;

export const EncodedTurnRecordSchema = Type.Object(
  {
    ...turnFields,
    assembled: listOrDelta(AssembledRefSchema),
    asSent: Type.Optional(
      Type.Object({ ...wireFields, messages: listOrDelta(WireMessageSchema) }, { additionalProperties: false }),
    ),
  },
  { additionalProperties: false },
);
export type EncodedTurnRecordWire = Static<typeof EncodedTurnRecordSchema>;

/**
 * A recording file as written: schemaVersion 1 (every list in full) or 2 (lists may be deltas). Checking the file
 * in this form costs what the file holds, not what its decoded turns hold (turns × context).
 */
export const RecordingFileSchema = Type.Object(
  {
    ...RecordingSchema.properties,
    schemaVersion: Type.Union([Type.Literal(1), Type.Literal(2)]),
    turns: Type.Record(Type.String(), Type.Array(EncodedTurnRecordSchema)),
  },
  { additionalProperties: false },
);
