// The slice of autocannon 9's programmatic API that the benches use (the package ships no types, and
// `next build` type-checks every .ts file of the repository, bench/ included).
declare module "autocannon" {
  export type Request = {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  };

  export type Options = {
    /** Several URLs spread the connections over them (round-robin). */
    url: string | string[];
    connections?: number;
    duration?: number;
    pipelining?: number;
    timeout?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    requests?: Request[];
    title?: string;
  };

  export type Histogram = {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p99: number;
    p99_9: number;
  };

  export type Result = {
    title?: string;
    url: string;
    connections: number;
    duration: number;
    start: Date;
    finish: Date;
    errors: number;
    timeouts: number;
    mismatches: number;
    non2xx: number;
    resets: number;
    "2xx": number;
    "4xx": number;
    "5xx": number;
    statusCodeStats: Record<string, { count: number }>;
    latency: Histogram;
    requests: Histogram & { sent: number };
    throughput: Histogram;
  };

  export type Instance = PromiseLike<Result> & { stop(): void };

  function autocannon(options: Options): Instance;
  export default autocannon;
}
