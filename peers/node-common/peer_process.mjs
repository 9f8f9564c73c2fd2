// Drives a slidecheck-exec client as slidecheck does: one process, one request line at a time,
// one answer line back. Used by the tests and by bench.mjs.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** True for a client that is a Node script (run with this node), not an executable. */
export const isNodeScript = (clientPath) => /\.(mjs|cjs|js)$/.test(clientPath);

export class PeerProcess {
  /** Starts `node clientPath`, or clientPath itself when it is an executable (extra arguments after it). */
  constructor(clientPath, args = []) {
    const [command, argv] = isNodeScript(clientPath) ? [process.execPath, [clientPath, ...args]] : [clientPath, args];
    this.child = spawn(command, argv, { stdio: ['pipe', 'pipe', 'pipe'] });
    this.stderr = '';
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (d) => { this.stderr += d; });
    this.waiting = [];
    this.lines = [];
    createInterface({ input: this.child.stdout, crlfDelay: Infinity }).on('line', (line) => {
      const w = this.waiting.shift();
      if (w) w.resolve(line);
      else this.lines.push(line);
    });
    this.exited = new Promise((resolve) => {
      this.child.on('exit', (code, signal) => {
        for (const w of this.waiting.splice(0)) w.reject(new Error(`client exited (code ${code}, signal ${signal}) before answering; stderr:\n${this.stderr}`));
        resolve({ code, signal });
      });
    });
  }

  /** Sends one request (an object, or a raw line) and resolves to the raw answer line. */
  sendRaw(request) {
    const line = typeof request === 'string' ? request : JSON.stringify(request);
    const answer = new Promise((resolve, reject) => {
      if (this.lines.length) resolve(this.lines.shift());
      else this.waiting.push({ resolve, reject });
    });
    this.child.stdin.write(line + '\n');
    return answer;
  }

  /** Sends one request and resolves to the parsed answer. */
  async send(request) {
    return JSON.parse(await this.sendRaw(request));
  }

  /** Closes stdin (EOF) and resolves to { code, signal } once the client has exited. */
  close() {
    this.child.stdin.end();
    return this.exited;
  }
}
