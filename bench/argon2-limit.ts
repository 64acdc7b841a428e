// The physical limit of W4: how many argon2id verifications (the service's parameters) one
// CPU does per second, one after another. Run pinned to the server's CPU:
// `node bench/argon2-limit.ts <seconds>`; prints {"verificationsPerSecond": n}.
import { hashPassword, verifyPassword } from '../src/auth/passwords.ts';

const seconds = Number(process.argv[2] ?? '3');
const hash = await hashPassword('bench-password-1');
await verifyPassword(hash, 'bench-password-1');
const started = performance.now();
let count = 0;
while (performance.now() - started < seconds * 1000) {
  await verifyPassword(hash, 'bench-password-1');
  count++;
}
process.stdout.write(`${JSON.stringify({ verificationsPerSecond: count / ((performance.now() - started) / 1000) })}\n`);
