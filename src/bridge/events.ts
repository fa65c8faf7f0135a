import { Type, type Static } from '@sinclair/typebox';
import { pluginsTopics } from './methods/plugins';
import { replayTopics } from './methods/replay';
import { shellTopics } from './methods/shell';

/** Progress of long work (loading a big session, a replay): `done` of `total` units in `phase`. */
export const ProgressEventSchema = Type.Object(
  {
    taskId: Type.String({ minLength: 1 }),
    phase: Type.String({ minLength: 1 }),
    done: Type.Integer({ minimum: 0 }),
    /** null when the total is not known yet. */
    total: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
    message: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
export type ProgressEvent = Static<typeof ProgressEventSchema>;

/**
 * Every event topic and the schema of its payload. Add a topic with one line (a namespace may export its own
 * `<ns>Topics` object and spread it here).
 */
export const eventTopics = {
  progress: ProgressEventSchema,
  ...pluginsTopics,
  ...replayTopics,
  ...shellTopics,
};

export type EventTopics = typeof eventTopics;
export type EventTopic = keyof EventTopics & string;
export type EventPayload<T extends EventTopic> = Static<EventTopics[T]>;

/** What travels from the runtime to the UI, unrequested. */
export type BridgeEvent = { [T in EventTopic]: { type: 'event'; topic: T; payload: EventPayload<T> } }[EventTopic];
