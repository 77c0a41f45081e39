/**
 * Prints the hottest functions of a V8 CPU profile (node --cpu-prof): self time and the share of
 * the sampled time, so docs/performance.md can name what limits a benchmark.
 *
 *   npx tsx bench/support/top-frames.ts <file.cpuprofile> [--top 25]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const file = process.argv[2];
if (!file) throw new Error('usage: top-frames <file.cpuprofile> [--top n]');
const at = process.argv.indexOf('--top');
const top = at >= 0 ? Number(process.argv[at + 1]) : 25;
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const selfUs = new Map<string, number>();
let total = 0;
profile.samples.forEach((id, index) => {
  const delta = profile.timeDeltas[index] ?? 0;
  const node = byId.get(id);
  if (!node) return;
  const { functionName, url, lineNumber } = node.callFrame;
  const name = `${functionName || '(anonymous)'} ${url.replace(/^.*\/(node_modules|libs|apps)\//, '$1/')}:${lineNumber + 1}`;
  selfUs.set(name, (selfUs.get(name) ?? 0) + delta);
  total += delta;
});
console.log(`sampled ${(total / 1e6).toFixed(2)} s`);
for (const [name, us] of [...selfUs.entries()].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  console.log(`${((us / total) * 100).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(7)} ms  ${name}`);
}
