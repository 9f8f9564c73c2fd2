#!/usr/bin/env node
// The entry point of every Node engine client: slidecheck-exec 1 requests on stdin, one answer
// per line on stdout (README.md). Runs the engine module ENGINE_DIR/peer.mjs (node-common/peer.mjs
// says what it exports):
//   node client.mjs [ENGINE_DIR]
// Installed (peers/node_peers.cmake), it is build/peers/node/<engine>/client.mjs beside that
// engine's peer.mjs, run without argument, as slidecheck runs it; from the source tree,
// `node peers/node-common/client.mjs peers/jolt`.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { reserveStdout, runProtocol } from '../node-common/protocol.mjs';
import { createPeer } from '../node-common/peer.mjs';

reserveStdout();
const engineDir = process.argv[2] !== undefined ? resolve(process.argv[2]) : dirname(fileURLToPath(import.meta.url));
const { createEngine } = await import(pathToFileURL(join(engineDir, 'peer.mjs')).href);
await runProtocol(createPeer(await createEngine()));
