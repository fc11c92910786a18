import { startCurrent } from './site';
import { throughput } from './throughput';
const configs = (process.env.AB_CONFIGS ?? '').split(';');
const paths = (process.env.AB_PATHS ?? '/api/tools/chatgpt').split(',');
const rounds = Number(process.env.AB_ROUNDS ?? 3);
const out: Record<string, number[]> = {};
for (let r = 0; r < rounds; r++)
  for (const c of configs) {
    process.env.AB_FLAGS = c;
    const site = await startCurrent();
    for (const p of paths) {
      const t = await throughput(site.baseUrl + p, 6);
      (out[`${c} ${p}`] ??= []).push(Math.round(t.rps));
      console.log(`round ${r} [${c}] ${p}: ${Math.round(t.rps)}`);
    }
    await site.stop();
  }
for (const [k, v] of Object.entries(out)) console.log(k, v.join(' '), 'median', v.sort((a, b) => a - b)[v.length >> 1]);
