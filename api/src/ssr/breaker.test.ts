import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createBreaker } from './breaker';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('the per-remote breaker', () => {
  it('opens after N consecutive failures, stays open for the cool-down, then lets one trial through', () => {
    const changes: string[] = [];
    const b = createBreaker({ failures: 3, coolDownMs: 10_000, onChange: (k, s) => changes.push(`${k}:${s}`) });
    b.failure('blog');
    b.failure('blog');
    expect(b.allow('blog')).toBe(true);
    b.failure('blog');
    expect(b.state('blog')).toBe('open');
    expect(b.allow('blog')).toBe(false);
    // Other remotes are not touched.
    expect(b.allow('directory')).toBe(true);
    vi.advanceTimersByTime(9_999);
    expect(b.allow('blog')).toBe(false);
    vi.advanceTimersByTime(1);
    expect(b.state('blog')).toBe('half-open');
    expect(b.allow('blog')).toBe(true);
    expect(b.allow('blog')).toBe(false); // one trial at a time
    b.success('blog');
    expect(b.state('blog')).toBe('closed');
    expect(b.allow('blog')).toBe(true);
    expect(changes).toEqual(['blog:open', 'blog:closed']);
  });

  it('a failed trial opens it for another full cool-down', () => {
    const b = createBreaker({ failures: 2, coolDownMs: 5_000 });
    b.failure('legal');
    b.failure('legal');
    vi.advanceTimersByTime(5_000);
    expect(b.allow('legal')).toBe(true);
    b.failure('legal');
    expect(b.allow('legal')).toBe(false);
    vi.advanceTimersByTime(4_999);
    expect(b.allow('legal')).toBe(false);
    vi.advanceTimersByTime(1);
    expect(b.allow('legal')).toBe(true);
  });

  it('a success resets the count: only consecutive failures open it', () => {
    const b = createBreaker({ failures: 2, coolDownMs: 5_000 });
    b.failure('forms');
    b.success('forms');
    b.failure('forms');
    expect(b.state('forms')).toBe('closed');
    b.failure('forms');
    expect(b.state('forms')).toBe('open');
  });
});
