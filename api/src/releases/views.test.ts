import type { IncomingMessage } from 'node:http';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { judge } from './autoRollback';
import type { ReleaseCounts } from './signals';
import { createSignalTokens, VIEWS_PER_VISITOR } from './signalTokens';
import { clientAddress, viewCounter } from './views';

/** A request as the front lane sees it: headers and the connection, none of Express's additions. */
const raw = (remoteAddress: string, forwarded?: string) =>
  ({
    headers: forwarded ? { 'x-forwarded-for': forwarded } : {},
    socket: { remoteAddress },
  }) as unknown as IncomingMessage;

describe('page views', () => {
  it("are read from the client's address as Express reads it, after TRUST_PROXY", () => {
    const behind = clientAddress(express().set('trust proxy', 'loopback'));
    expect(behind(raw('127.0.0.1', '203.0.113.5'))).toBe('203.0.113.5');
    expect(behind(raw('198.51.100.9', '203.0.113.5'))).toBe('198.51.100.9'); // not a trusted proxy
    expect(clientAddress(express())(raw('127.0.0.1', '203.0.113.5'))).toBe('127.0.0.1');
  });

  it('count a few per visitor: a flood from one address does not hide a broken canary', () => {
    const counted = new Map<string, number>();
    const count = viewCounter({
      signals: {
        count: (_remote, release, _kind, n = 1) => void counted.set(release, (counted.get(release) ?? 0) + n),
      },
      tokens: createSignalTokens('test-secret'),
      addressOf: (req) => req.socket.remoteAddress!,
    });
    // 4,000 views of the canary (c1) from one address, then ten visitors in five networks, three pages each.
    for (let i = 0; i < 4000; i++) count(raw('192.0.2.10'), 'blog', 'c1');
    for (let v = 0; v < 10; v++)
      for (let p = 0; p < 3; p++) count(raw(`198.51.${100 + (v % 5)}.${v + 1}`), 'blog', 'c1');
    for (let v = 0; v < 100; v++) count(raw(`203.0.113.${v + 1}`), 'blog', 's1');
    expect(counted.get('c1')).toBe(VIEWS_PER_VISITOR + 30);
    // The ten visitors report three errors each: the canary is clearly worse.
    const c = (views: number, errors: number): ReleaseCounts => ({
      views,
      errors,
      serverErrors: 0,
      byKind: {},
      sources: { visitors: 10, networks: 5 },
      refused: {},
    });
    const rule = {
      minViews: 20,
      minErrors: 10,
      ratio: 2,
      minDiffPoints: 1,
      minVisitors: 10,
      minNetworks: 5,
      windowMs: 0,
    };
    expect(judge(c(counted.get('c1')!, 30), c(counted.get('s1')!, 0), rule).rollBack).toBe(true);
  });
});
