export { generateSession } from './generateSession';
export type {
  GenerateSessionOptions,
  GeneratedSession,
  GeneratedSessionSet,
  GeneratedSessionStats,
} from './generateSession';
export { writeGeneratedSessions, type WrittenSessionSet } from './writeGeneratedSessions';
export { Prng } from './prng';
export { effectiveReserveTokens } from './sessionSimulator';
