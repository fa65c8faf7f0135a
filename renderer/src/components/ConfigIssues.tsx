import type { ConfigIssueInfo } from '../../../src/bridge/methods';
import { formatPath } from '../model/configDraft';
import { Tag } from './Tag';

export interface ConfigIssuesProps {
  issues: readonly ConfigIssueInfo[];
  /** "of the file" / "after your changes" */
  title: string;
}

/** Validation as OpenClaw does it: errors (a save is refused) and warnings, each with its path and line. */
export function ConfigIssues({ issues, title }: ConfigIssuesProps) {
  if (issues.length === 0) return null;
  const errors = issues.filter((i) => i.severity === 'error').length;
  return (
    <section className="card config-issues" aria-label={`Validation ${title}`} data-testid="config-issues">
      <h2 className="card__title">
        Validation {title}: {errors} error{errors === 1 ? '' : 's'}, {issues.length - errors} warning
        {issues.length - errors === 1 ? '' : 's'}
      </h2>
      <ul className="config-issues__list">
        {issues.map((issue, i) => (
          <li key={i} className="config-issues__item" data-testid="config-issue">
            <Tag text={issue.severity} tone={issue.severity === 'error' ? 'bad' : 'warn'} />
            <span className="mono config-issues__path">
              {formatPath(issue.path)}
              {issue.line ? ` · line ${issue.line}` : ''}
            </span>
            <span className="config-issues__message">{issue.message}</span>
            {issue.fix && <span className="muted config-issues__fix">Fix: {issue.fix}</span>}
          </li>
        ))}
      </ul>
    </section>
  );
}
