#!/usr/bin/env node
// slidecheck-exec 1 client for Jolt Physics: reads requests on stdin, answers on stdout (README.md).
import { reserveStdout, runProtocol } from '../node-common/protocol.mjs';
import { createJoltPeer } from './jolt_peer.mjs';

reserveStdout();
const peer = await createJoltPeer();
await runProtocol(peer);
