#!/usr/bin/env node
// Queries per second of an exec client on a slidecheck query corpus, driven as slidecheck drives
// it: one process, one request in flight, in the first precision the client describes. Usage:
//   node peers/bench.mjs CLIENT QUERIES.jsonl [--limit N] [--answers OUT.jsonl] [--client-arg ARG]...
// CLIENT is a Node script (client.mjs) or an executable (build/slidecheck_bullet_float with
// --client-arg --mode --client-arg kcc).
// Scene paths are resolved against the query file's directory, as docs/formats.md says.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve, isAbsolute } from 'node:path';
import { PeerProcess } from './node-common/peer_process.mjs';

const args = process.argv.slice(2);
const flag = (name) => {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const v = args[i + 1];
  args.splice(i, 2);
  return v;
};
const limit = Number(flag('--limit') ?? Infinity);
const answersOut = flag('--answers');
const clientArgs = [];
for (let a = flag('--client-arg'); a !== undefined; a = flag('--client-arg')) clientArgs.push(a);
const [client, queriesPath] = args;
if (!client || !queriesPath) {
  console.error('usage: node peers/bench.mjs CLIENT QUERIES.jsonl [--limit N] [--answers OUT.jsonl] [--client-arg ARG]...');
  process.exit(2);
}

const t0 = performance.now();
const peer = new PeerProcess(resolve(client), clientArgs);
const describe = await peer.send({ describe: true });
const t1 = performance.now();

const base = dirname(resolve(queriesPath));
const precision = describe.precisions?.[0] ?? 'float';
const requests = readFileSync(queriesPath, 'utf8').split('\n').filter((l) => l.trim() !== '').slice(0, limit).map((line) => {
  const query = JSON.parse(line);
  const scene = isAbsolute(query.scene) ? query.scene : resolve(base, query.scene);
  return { scene, query, precision };
});
const answers = [];
const perScene = new Map();
let errors = 0;
const errorKinds = new Map();
for (const req of requests) {
  const s = performance.now();
  const a = await peer.send(req);
  const e = performance.now();
  answers.push(a);
  const key = req.query.scene;
  perScene.set(key, (perScene.get(key) ?? 0) + (e - s));
  if (a.error) {
    errors++;
    const kind = a.error.replace(/query '[^']*': /, '').slice(0, 80);
    errorKinds.set(kind, (errorKinds.get(kind) ?? 0) + 1);
  }
}
const t2 = performance.now();
const { code } = await peer.close();
if (peer.stderr) process.stderr.write(peer.stderr);
if (answersOut) writeFileSync(answersOut, answers.map((a) => JSON.stringify(a)).join('\n') + '\n');

const n = requests.length;
const secs = (t2 - t1) / 1000;
console.log(`${describe.implementation}`);
console.log(`start-up (process + engine init + describe): ${(t1 - t0).toFixed(0)} ms`);
console.log(`${n} queries in ${secs.toFixed(2)} s: ${(n / secs).toFixed(0)} queries/s (${errors} errors), exit code ${code}`);
for (const [k, v] of errorKinds) console.log(`  error x${v}: ${k}`);
const slow = [...perScene].sort((a, b) => b[1] - a[1]).slice(0, 3);
console.log(`slowest scenes (total ms): ${slow.map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', ')}`);
