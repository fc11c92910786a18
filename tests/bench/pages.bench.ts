/**
 * Server rendering and page weight, measured on the production build: time to first byte and full HTML per route
 * (loopback, warm), HTML size, and the JavaScript a first visit to / downloads (gzip), split shell vs remote.
 */
import { gzipSync } from 'node:zlib';
import { startSite } from '../e2e/harness';
import { ms, summarize } from './stats';

const ROUTES = ['/', '/?category=Development&page=2', '/tool/cursor', '/blog', '/blog/what-is-model-context-protocol-mcp', '/submit', '/privacy', '/no-such-page'];
const RUNS = 40;

const site = await startSite({ extraEnv: { LOG_LEVEL: 'silent' } });
try {
  console.log(`route                                       median     p95        html (gzip)`);
  for (const route of ROUTES) {
    const times: number[] = [];
    let body = '';
    for (let i = 0; i < RUNS + 5; i++) {
      const t = performance.now();
      const res = await fetch(site.baseUrl + route);
      body = await res.text();
      if (i >= 5) times.push(performance.now() - t);
    }
    const { median, p95 } = summarize(times);
    console.log(`${route.padEnd(44)}${ms(median).padEnd(11)}${ms(p95).padEnd(11)}${(gzipSync(body).length / 1024).toFixed(1)} KiB`);
  }

  // JavaScript of a first visit to /: what the page references and what the federated route pulls in.
  const html = await (await fetch(site.baseUrl + '/')).text();
  const scripts = [...html.matchAll(/(?:src|href)="(\/(?:assets|remotes)\/[^"]+\.js)"/g)].map((m) => m[1]);
  let shellBytes = 0;
  let remoteBytes = 0;
  for (const src of new Set(scripts)) {
    const bytes = gzipSync(Buffer.from(await (await fetch(site.baseUrl + src)).arrayBuffer())).length;
    if (src.startsWith('/assets/')) shellBytes += bytes;
    else remoteBytes += bytes;
  }
  console.log(`\nfirst-visit JS referenced by / (gzip): shell entry ${(shellBytes / 1024).toFixed(1)} KiB, remote code preloaded ${(remoteBytes / 1024).toFixed(1)} KiB`);
  console.log('(the shell entry imports its shared chunks and the remote module at run time; see the e2e network checks)');
} finally {
  await site.stop();
}
