import './InfoCard.css';

export interface InfoCardProps {
  title: string;
  rows: ReadonlyArray<readonly [label: string, value: string]>;
  testId?: string;
}

/** A titled card of label/value pairs. */
export function InfoCard({ title, rows, testId }: InfoCardProps) {
  return (
    <section className="card" data-testid={testId}>
      <h2 className="card__title">{title}</h2>
      <dl className="card__rows">
        {rows.map(([label, value]) => (
          <div className="card__row" key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
