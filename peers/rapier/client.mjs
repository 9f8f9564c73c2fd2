#!/usr/bin/env node
// slidecheck-exec 1 client for Rapier: reads requests on stdin, answers on stdout (README.md).
import { reserveStdout, runProtocol } from '../node-common/protocol.mjs';
import { createRapierPeer } from './rapier_peer.mjs';

reserveStdout();
const peer = await createRapierPeer();
await runProtocol(peer);
