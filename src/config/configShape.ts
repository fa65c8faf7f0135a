/**
 * The shape of the parts of openclaw.json ContextScope edits (plugins.*, agents.defaults.compaction and the
 * context window), as JSON Schema. Everything else is an open record: OpenClaw's other settings are kept as
 * they are and not judged here.
 */
import { Type } from '@sinclair/typebox';

const TokenCount = Type.Integer({ minimum: 0 });

export const PluginEntryShape = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean()),
    config: Type.Optional(Type.Object({}, { additionalProperties: true })),
  },
  { additionalProperties: true },
);

export const CompactionShape = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean()),
    mode: Type.Optional(Type.Unsafe<'default' | 'safeguard'>({ type: 'string', enum: ['default', 'safeguard'] })),
    reserveTokens: Type.Optional(TokenCount),
    keepRecentTokens: Type.Optional(Type.Integer({ minimum: 1 })),
    reserveTokensFloor: Type.Optional(TokenCount),
    maxHistoryShare: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1 })),
  },
  { additionalProperties: true },
);

export const OpenClawConfigShape = Type.Object(
  {
    plugins: Type.Optional(
      Type.Object(
        {
          enabled: Type.Optional(Type.Boolean()),
          allow: Type.Optional(Type.Array(Type.String())),
          deny: Type.Optional(Type.Array(Type.String())),
          load: Type.Optional(
            Type.Object({ paths: Type.Optional(Type.Array(Type.String())) }, { additionalProperties: true }),
          ),
          slots: Type.Optional(
            Type.Object(
              { contextEngine: Type.Optional(Type.String()), memory: Type.Optional(Type.String()) },
              { additionalProperties: Type.String() },
            ),
          ),
          entries: Type.Optional(Type.Record(Type.String(), PluginEntryShape)),
        },
        { additionalProperties: true },
      ),
    ),
    agents: Type.Optional(
      Type.Object(
        {
          defaults: Type.Optional(
            Type.Object(
              {
                compaction: Type.Optional(CompactionShape),
                /** the agent's context window cap in tokens */
                contextTokens: Type.Optional(Type.Integer({ minimum: 1 })),
              },
              { additionalProperties: true },
            ),
          ),
        },
        { additionalProperties: true },
      ),
    ),
  },
  { additionalProperties: true },
);
