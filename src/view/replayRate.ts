/**
 * A running replay's pace and time left, as the app's progress strip and run card show them. The rate is measured
 * from a first sample taken once turns come in, not from the replay's start: before its first turn a replay sets up
 * its lanes (engine hosts start, the session is prepared), and a rate over that wait made the first estimate many
 * times too long (issue 34: "about 4 min" for a 9 s replay). Until enough turns have been measured there is no rate.
 */

/** lane-turns done after `elapsedMs` ms of the replay */
export interface ReplayProgressSample {
  done: number;
  elapsedMs: number;
}

/** lane-turns past the first sample before a rate is given: a handful of turns says little about the rest */
export const RATE_MIN_TURNS = 20;
/** and time past it, so a burst of turns answered in one page does not read as the pace */
export const RATE_MIN_MS = 500;

/** the pace is measured over about the last this many ms, so it follows a replay whose first turns were slow */
export const RATE_WINDOW_MS = 10_000;

/** Where a pace is measured from and to: the window's first sample and the latest. */
export interface ReplayPace {
  first: ReplayProgressSample;
  last: ReplayProgressSample;
}

/**
 * The pace after a new sample: the window starts at the first sample, and moves up to the previous latest one once it
 * spans more than RATE_WINDOW_MS (so it spans between one and two windows).
 */
export function advancePace(pace: ReplayPace | undefined, sample: ReplayProgressSample): ReplayPace {
  if (!pace) return { first: sample, last: sample };
  const first = sample.elapsedMs - pace.first.elapsedMs > 2 * RATE_WINDOW_MS ? pace.last : pace.first;
  return { first, last: sample };
}

export interface ReplayRate {
  /** lane-turns a second since the first sample */
  perSecond: number;
  /** seconds until `total` at that pace */
  leftSeconds: number;
}

/** The pace from `first` to `now` and the time left to `total`; null until RATE_MIN_TURNS and RATE_MIN_MS past `first`. */
export function replayRate(
  first: ReplayProgressSample | undefined,
  now: ReplayProgressSample,
  total: number,
): ReplayRate | null {
  if (!first) return null;
  const turns = now.done - first.done;
  const ms = now.elapsedMs - first.elapsedMs;
  if (turns < RATE_MIN_TURNS || ms < RATE_MIN_MS) return null;
  const perSecond = turns / (ms / 1000);
  return { perSecond, leftSeconds: Math.max(0, (total - now.done) / perSecond) };
}

/** "12.5 turns/s · about 40 s left" (null while replayRate has no rate). */
export function replayRateText(
  first: ReplayProgressSample | undefined,
  now: ReplayProgressSample,
  total: number,
): string | null {
  const rate = replayRate(first, now, total);
  if (!rate) return null;
  const { perSecond, leftSeconds } = rate;
  const left = leftSeconds < 90 ? `${Math.ceil(leftSeconds)} s` : `${Math.ceil(leftSeconds / 60)} min`;
  return `${perSecond.toFixed(perSecond < 10 ? 1 : 0)} turns/s · about ${left} left`;
}
