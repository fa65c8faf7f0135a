/** The Recording types the view model reads (type-only: src/view carries no runtime code from src/contract). */
export type {
  AssembledRef,
  Finding,
  IndexRange,
  LaneRecord,
  MessageRecord,
  Provenance,
  Recording,
  ReplayEvent,
  SessionInfo,
  TurnRecord,
} from '../contract/recording';
