import type { Provenance } from '../recordingTypes';
import './ProvenanceBadge.css';

const MEANING: Record<Provenance, string> = {
  raw: 'raw: the transcript message, unchanged',
  modified: 'modified: derived from a transcript message, content changed',
  summary: 'summary: written by the engine or a compaction in place of older messages',
  synthetic: 'synthetic: injected by the engine, not from the transcript',
};

export function ProvenanceBadge({ provenance }: { provenance: Provenance }) {
  return (
    <span className={`prov prov--${provenance}`} data-testid="provenance-badge" title={MEANING[provenance]}>
      {provenance}
    </span>
  );
}
