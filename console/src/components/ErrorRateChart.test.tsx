import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buckets, ErrorRateChart } from './ErrorRateChart';

describe('the error-rate chart data', () => {
  it('sums minutes into buckets: errors per view for stable and canary, and the rollback line above stable', () => {
    const points = [
      { minute: '2026-11-26T09:00:00Z', release: 's', views: 100, errors: 1 },
      { minute: '2026-11-26T09:00:00Z', release: 'c', views: 10, errors: 1 },
      { minute: '2026-11-26T09:01:00Z', release: 's', views: 100, errors: 3 },
      { minute: '2026-11-26T09:01:00Z', release: 'other', views: 100, errors: 100 },
    ];
    const [first, second] = buckets(points, 's', 'c', { ratio: 2, minDiffPoints: 5 });
    expect(first).toEqual({ start: '2026-11-26T09:00:00.000Z', stable: 1, canary: 10, threshold: 6 });
    // A release that is neither stable nor the canary is not counted; no canary views: no canary rate.
    expect(second).toMatchObject({ stable: 3, canary: null, threshold: 8 });
    expect(buckets(points, 's', 'c', { ratio: 3, minDiffPoints: 1 })[1].threshold).toBe(9);
  });

  it('reads minutes since 1970 as the server sends them', () => {
    const minute = Date.UTC(2026, 10, 26, 9, 0) / 60_000;
    expect(buckets([{ minute, release: 's', views: 4, errors: 1 }], 's', undefined, {})).toEqual([
      { start: '2026-11-26T09:00:00.000Z', stable: 25, canary: null, threshold: null },
    ]);
  });

  it('keeps at most 24 buckets over six hours', () => {
    const points = Array.from({ length: 360 }, (_, i) => ({
      minute: new Date(Date.UTC(2026, 10, 26, 6, i)).toISOString(),
      release: 's',
      views: 1,
      errors: 0,
    }));
    expect(buckets(points, 's', undefined, {}).length).toBeLessThanOrEqual(24);
    expect(buckets([], 's', undefined, {})).toEqual([]);
  });
});

describe('the error-rate chart', () => {
  it('draws each line with a dot per bucket, and the numbers in a table', () => {
    const { container } = render(
      <ErrorRateChart
        title="blog"
        data={[
          { start: '2026-11-26T09:00:00.000Z', stable: 1, canary: 4, threshold: 3 },
          { start: '2026-11-26T09:15:00.000Z', stable: 2, canary: null, threshold: 4 },
        ]}
      />,
    );
    expect(screen.getByRole('img', { name: /blog/ })).toBeTruthy();
    expect(container.querySelectorAll('.chart__dot--canary')).toHaveLength(1);
    expect(container.querySelectorAll('.chart__dot--stable')).toHaveLength(2);
    expect(screen.getByRole('row', { name: '2026-11-26 09:15 2.0% — 4.0%' })).toBeTruthy();
  });

  it('says so when neither release had a view', () => {
    render(
      <ErrorRateChart
        title="blog"
        data={[{ start: '2026-11-26T09:00:00.000Z', stable: null, canary: null, threshold: null }]}
      />,
    );
    expect(screen.getByText('No page views in the last hours.')).toBeTruthy();
    expect(screen.queryByRole('img')).toBeNull();
  });
});
