import { Type } from '@sinclair/typebox';
import { RecordingSchema } from '../../contract/recording';
import { RecordingPageSchema } from './replay';

/**
 * What the methods that answer with a Recording (`recordings.open`, `recordings.import`, `batch.recording`) share
 * with `replay.get`: no answer over the bridge's 1 MB bound. The Recording comes whole when it is under 900 kB of
 * JSON, else the answer is `paged` and the Recording is read with `from` (and `count`) in pages of `replay.get`'s
 * format (RecordingPageSchema), from 0 until `more` is false.
 */
export const PageRequestFields = {
  /** a page of the recording from this turn position (lanes in order, 0 to its turn count): `page`, not `recording` */
  from: Type.Optional(Type.Integer({ minimum: 0 })),
  /** at most this many turns in the page (with `from`; default as many as fit in 512 KiB) */
  count: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
};

export const PagedRecordingFields = {
  /** the whole Recording, when it fits in one bridge message (under 900 kB of JSON) */
  recording: Type.Optional(RecordingSchema),
  /** the Recording is too large for one message: read it with `from` (and `count`) */
  paged: Type.Optional(Type.Literal(true)),
  /** with `from`: that page of the Recording */
  page: Type.Optional(RecordingPageSchema),
};
