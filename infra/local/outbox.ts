/**
 * The local outbox of sign-in mail (EMAIL_OUTBOX, one JSON line per message), which stands in for
 * SES: `npm start` prints each new message, `npm run admin -- outbox` lists them.
 */
import { existsSync, openSync, readFileSync, readSync, closeSync, statSync, unwatchFile, watchFile } from 'node:fs';

export interface OutboxMessage {
  at: string;
  to: string;
  subject: string;
  text: string;
}

/** Every message of the outbox, oldest first; none when it does not exist yet. */
export function readOutbox(file: string): OutboxMessage[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as OutboxMessage);
}

/** Calls `show` with each message written from now on; returns the stop. Polls, as fs.watch misses appends on some filesystems. */
export function followOutbox(file: string, show: (message: OutboxMessage) => void, intervalMs = 250): () => void {
  let offset = existsSync(file) ? statSync(file).size : 0;
  let partial = '';
  const read = () => {
    if (!existsSync(file)) return;
    const size = statSync(file).size;
    if (size < offset) offset = 0;
    if (size === offset) return;
    const buffer = Buffer.alloc(size - offset);
    const fd = openSync(file, 'r');
    try {
      readSync(fd, buffer, 0, buffer.length, offset);
    } finally {
      closeSync(fd);
    }
    offset = size;
    const lines = (partial + buffer.toString('utf8')).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines.filter(Boolean)) show(JSON.parse(line) as OutboxMessage);
  };
  watchFile(file, { interval: intervalMs }, read);
  return () => unwatchFile(file, read);
}
