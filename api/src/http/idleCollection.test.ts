import { EventEmitter } from 'node:events';
import { getHeapStatistics } from 'node:v8';
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { collectWhenIdle, IDLE_CHECK_MS, reduceHeap } from './idleCollection';

describe('a collection when the site goes quiet', () => {
  let site: EventEmitter;
  let console_: EventEmitter;
  let collect: Mock<() => void>;
  let stop: () => void;
  beforeEach(() => {
    vi.useFakeTimers();
    site = new EventEmitter();
    console_ = new EventEmitter();
    collect = vi.fn<() => void>();
    stop = collectWhenIdle([site, null, console_], { collect });
  });
  afterEach(() => {
    stop();
    vi.useRealTimers();
  });

  it('runs nothing while no request ever came', () => {
    vi.advanceTimersByTime(IDLE_CHECK_MS * 5);
    expect(collect).not.toHaveBeenCalled();
  });

  it('runs once a whole check period passed without a request, and once only for that quiet spell', () => {
    site.emit('request');
    vi.advanceTimersByTime(IDLE_CHECK_MS);
    expect(collect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(IDLE_CHECK_MS);
    expect(collect).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(IDLE_CHECK_MS * 10);
    expect(collect).toHaveBeenCalledTimes(1);
  });

  it('waits while requests keep coming, on either server, and runs again after the next load', () => {
    for (let i = 0; i < 10; i++) {
      (i % 2 ? console_ : site).emit('request');
      vi.advanceTimersByTime(IDLE_CHECK_MS / 2);
    }
    expect(collect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(IDLE_CHECK_MS * 2);
    expect(collect).toHaveBeenCalledTimes(1);
    console_.emit('request');
    vi.advanceTimersByTime(IDLE_CHECK_MS * 2);
    expect(collect).toHaveBeenCalledTimes(2);
  });

  it('stops counting and checking when stopped', () => {
    stop();
    site.emit('request');
    vi.advanceTimersByTime(IDLE_CHECK_MS * 3);
    expect(collect).not.toHaveBeenCalled();
    expect(site.listenerCount('request')).toBe(0);
  });
});

describe('the heap reduction', () => {
  it('gives back the heap that garbage grew', () => {
    const held: { garbage?: number[][] } = {
      garbage: Array.from({ length: 100 }, (_, i) => new Array<number>(100_000).fill(i)),
    };
    const grown = getHeapStatistics().total_heap_size;
    expect(held.garbage).toHaveLength(100);
    delete held.garbage;
    reduceHeap();
    // 100 arrays of 100,000 numbers hold at least 40 MB; all of it is released.
    expect(grown - getHeapStatistics().total_heap_size).toBeGreaterThan(40 * 1024 * 1024);
  });
});
