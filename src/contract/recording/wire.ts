/**
 * "As sent": the chat request OpenClaw builds from a turn's assembled context, per release (src/replay/wire). It
 * references the recording's messages by key and says only what OpenClaw adds to them, so it stays as small as
 * `assembled`.
 */
import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from './schemaHelpers';

export const WireMessageSchema = Type.Object(
  {
    /** the chat role on the wire (`toolResult` is sent as `tool`) */
    role: Type.Union([Type.Literal('user'), Type.Literal('assistant'), Type.Literal('tool')]),
    /** the recording message it was shaped from; null for a message OpenClaw adds (the internal context) */
    key: Nullable(Type.String()),
    /** assembled (from the engine), prompt (the turn's user prompt), host (added by OpenClaw, never stored) */
    origin: Type.Union([Type.Literal('assembled'), Type.Literal('prompt'), Type.Literal('host')]),
    /** text put before the message's first text (the timestamp stamp) */
    prefix: Type.Optional(Type.String()),
    /**
     * text OpenClaw's trajectory recorded before the prompt (after the stamp) that the transcript does not keep: the
     * subagent steering event OpenClaw 2026.6+ prepends when a child finished before the turn (src/replay/trajectory/
     * promptWrappers.ts)
     */
    recordedPrefix: Type.Optional(Type.String()),
    /** text put after its last text (the relocated `Runtime: …` line) */
    suffix: Type.Optional(Type.String()),
    /** the whole text of a host message */
    text: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
export type WireMessage = Static<typeof WireMessageSchema>;

export const WireViewSchema = Type.Object(
  {
    /** the release whose request shaping this is */
    openclawVersion: Type.String(),
    /** the zone of the timestamp stamps */
    timeZone: Type.String(),
    messages: Type.Array(WireMessageSchema),
    /** what OpenClaw sends that the replay cannot know (the system prompt, the tool list, host fields) */
    elided: Type.Array(Type.String()),
  },
  { additionalProperties: false },
);
export type WireView = Static<typeof WireViewSchema>;
