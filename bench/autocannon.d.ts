// The part of autocannon's programmatic API the load generator uses (the package ships no types).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }

  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    timeout?: number;
    requests?: Request[];
  }

  interface Result {
    errors: number;
    timeouts: number;
    non2xx: number;
  }

  function autocannon(options: Options, done: (error: Error | null, result: Result) => void): EventEmitter;
  export default autocannon;
}
