/** The first line of `contextscope replay`'s summary: which release the replay behaved as and where settings came from. */
import type { Recording } from '../../contract/recording';

export function formatReplaySettingsLine(recording: Recording): string {
  const { options } = recording;
  const choice = options.openclawVersionChoice;
  const how = choice?.how === 'inferred' ? `inferred from ${choice.from ?? 'the session'}` : (choice?.how ?? 'given');
  const parts = [`OpenClaw ${options.openclawVersion ?? 'unknown'} (${how})`];
  const sources = options.settingSources;
  const lane = recording.lanes.find((l) => !l.parentLane && l.source !== 'trajectory') ?? recording.lanes[0];
  if (lane) {
    const src = (key: string) => (sources?.[key] ? ` (${sources[key]})` : '');
    parts.push(`window ${lane.contextWindow}${src('contextWindow')}`);
    parts.push(`keepRecentTokens ${lane.keepRecentTokens}${src('keepRecentTokens')}`);
    parts.push(`reserve ${lane.reserveTokens} effective${src('reserveTokens')}`);
  }
  if (sources?.configPath) parts.push(`settings read from ${sources.configPath}`);
  return `${parts.join(' · ')}\n`;
}
