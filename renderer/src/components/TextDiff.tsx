import { diffLines, diffWordsWithSpace } from 'diff';
import { useMemo } from 'react';
import './TextDiff.css';

export interface TextDiffProps {
  title: string;
  before: string;
  after: string;
}

/** Longer texts are compared line by line (a word diff of a long tool result is unreadable and slow). */
const WORD_DIFF_LIMIT = 6000;

/** A text diff (the `diff` library): removed text struck through with −, added text underlined with +. */
export function TextDiff({ title, before, after }: TextDiffProps) {
  const parts = useMemo(
    () =>
      before.length + after.length > WORD_DIFF_LIMIT ? diffLines(before, after) : diffWordsWithSpace(before, after),
    [before, after],
  );
  const removed = parts.filter((p) => p.removed).reduce((n, p) => n + p.value.length, 0);
  const added = parts.filter((p) => p.added).reduce((n, p) => n + p.value.length, 0);
  return (
    <figure className="text-diff" data-testid="text-diff">
      <figcaption className="text-diff__title">
        {title}{' '}
        <span className="muted">
          (<span className="text-diff__count-del">−{removed}</span>{' '}
          <span className="text-diff__count-ins">+{added}</span> characters)
        </span>
      </figcaption>
      <pre className="text-diff__body">
        {parts.map((part, i) =>
          part.added ? (
            <ins key={i} className="text-diff__ins">
              {part.value}
            </ins>
          ) : part.removed ? (
            <del key={i} className="text-diff__del">
              {part.value}
            </del>
          ) : (
            <span key={i}>{part.value}</span>
          ),
        )}
      </pre>
    </figure>
  );
}
