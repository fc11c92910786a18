/**
 * Error rates over the last hours, canary against stable, beside the line automatic rollback acts above
 * (api/src/releases/autoRollback.ts: more than `ratio` times the stable rate and `minDiffPoints` points above it).
 * Drawn as SVG with d3-shape (docs/dependencies.md): styled by the stylesheet, readable in the DOM, and the same
 * numbers are in a table for screen readers.
 */
import { line } from 'd3-shape';
import type { SeriesPoint, Thresholds } from '../types';
import { Table } from './Table';

const W = 640;
const H = 220;
const PAD = { left: 44, right: 12, top: 12, bottom: 28 };
const BUCKETS = 24;

export interface Bucket {
  start: string;
  stable: number | null;
  canary: number | null;
  threshold: number | null;
}

const pct = (views: number, errors: number) => (views ? (errors / views) * 100 : null);

/** Per-minute points summed into at most 24 buckets: each rate is errors per view in its bucket, in percent. */
export function buckets(points: SeriesPoint[], stable: string, canary: string | undefined, t: Thresholds): Bucket[] {
  if (points.length === 0) return [];
  const times = points.map((p) => (typeof p.minute === 'number' ? p.minute * 60_000 : Date.parse(p.minute)));
  const first = Math.min(...times);
  const last = Math.max(...times);
  const size = Math.max(60_000, Math.ceil((last - first + 60_000) / BUCKETS / 60_000) * 60_000);
  const sums = new Map<number, { sv: number; se: number; cv: number; ce: number }>();
  points.forEach((p, i) => {
    const k = Math.floor((times[i] - first) / size);
    const s = sums.get(k) ?? { sv: 0, se: 0, cv: 0, ce: 0 };
    if (p.release === stable) {
      s.sv += p.views;
      s.se += p.errors;
    } else if (p.release === canary) {
      s.cv += p.views;
      s.ce += p.errors;
    }
    sums.set(k, s);
  });
  return [...sums.entries()]
    .sort(([a], [b]) => a - b)
    .map(([k, s]) => {
      const stableRate = pct(s.sv, s.se);
      const threshold =
        stableRate === null || (t.ratio === undefined && t.minDiffPoints === undefined)
          ? null
          : Math.max(stableRate * (t.ratio ?? 1), stableRate + (t.minDiffPoints ?? 0));
      return {
        start: new Date(first + k * size).toISOString(),
        stable: stableRate,
        canary: pct(s.cv, s.ce),
        threshold,
      };
    });
}

type Key = 'stable' | 'canary' | 'threshold';
const SERIES: { key: Key; label: string }[] = [
  { key: 'stable', label: 'Stable' },
  { key: 'canary', label: 'Canary' },
  { key: 'threshold', label: 'Rollback threshold' },
];

export function ErrorRateChart({
  data,
  title,
  freshLabel = 'Canary',
}: {
  data: Bucket[];
  title: string;
  /** What the new release's line is called: a canary, or a full release still watched. */
  freshLabel?: string;
}) {
  if (!data.some((b) => b.stable !== null || b.canary !== null)) return <p>No page views in the last hours.</p>;
  const series = SERIES.map((s) => (s.key === 'canary' ? { ...s, label: freshLabel } : s));
  const max = Math.max(1, ...data.flatMap((b) => [b.stable ?? 0, b.canary ?? 0, b.threshold ?? 0]));
  const x = (i: number) => PAD.left + (data.length === 1 ? 0 : (i / (data.length - 1)) * (W - PAD.left - PAD.right));
  const y = (v: number) => PAD.top + (1 - v / max) * (H - PAD.top - PAD.bottom);
  const path = (key: Key) =>
    line<Bucket>()
      .defined((b) => b[key] !== null)
      .x((_, i) => x(i))
      .y((b) => y(b[key] ?? 0))(data) ?? '';
  const hhmm = (iso: string) => iso.slice(11, 16);
  return (
    <figure className="chart">
      <figcaption>{title}</figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`${title}: the table below has the same numbers`}>
        <line className="chart__axis" x1={PAD.left} x2={W - PAD.right} y1={y(0)} y2={y(0)} />
        <line className="chart__grid" x1={PAD.left} x2={W - PAD.right} y1={y(max)} y2={y(max)} />
        <text className="chart__label" x={PAD.left - 6} y={y(0)} textAnchor="end" dominantBaseline="middle">
          0%
        </text>
        <text className="chart__label" x={PAD.left - 6} y={y(max)} textAnchor="end" dominantBaseline="middle">
          {`${max.toFixed(1)}%`}
        </text>
        <text className="chart__label" x={x(0)} y={H - 8} textAnchor="start">
          {data.length === 1 ? `${hhmm(data[0].start)} UTC` : hhmm(data[0].start)}
        </text>
        {data.length > 1 && (
          <text className="chart__label" x={x(data.length - 1)} y={H - 8} textAnchor="end">
            {`${hhmm(data[data.length - 1].start)} UTC`}
          </text>
        )}
        {series.map((s) => (
          <g key={s.key}>
            <path className={`chart__line chart__line--${s.key}`} d={path(s.key)} />
            {data.map((b, i) =>
              b[s.key] === null ? null : (
                <circle key={i} className={`chart__dot chart__dot--${s.key}`} cx={x(i)} cy={y(b[s.key]!)} r={3} />
              ),
            )}
          </g>
        ))}
      </svg>
      <ul className="chart__legend">
        {series.map((s) => (
          <li key={s.key}>
            <svg viewBox="0 0 24 8" aria-hidden="true" className="chart__swatch">
              <line className={`chart__line chart__line--${s.key}`} x1="0" x2="24" y1="4" y2="4" />
            </svg>
            {s.label}
          </li>
        ))}
      </ul>
      <details>
        <summary>The chart's numbers</summary>
        <Table columns={['From (UTC)', ...series.map((s) => s.label)]}>
          {data.map((b) => (
            <tr key={b.start}>
              <th scope="row">{b.start.slice(0, 16).replace('T', ' ')}</th>
              {series.map((s) => (
                <td key={s.key} className="num">
                  {b[s.key] === null ? '—' : `${b[s.key]!.toFixed(1)}%`}
                </td>
              ))}
            </tr>
          ))}
        </Table>
      </details>
    </figure>
  );
}
