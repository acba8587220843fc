import http from "node:http";
import https from "node:https";
import { guardedLookup, urlProblem } from "./guard";
import { parseRetryAfter } from "./schedule";

export type PostResult = {
  ok: boolean;
  status: number | null;
  latencyMs: number;
  excerpt: string;
  error: string | null;
  retryAfterMs: number | null;
};

const EXCERPT_BYTES = 512;
const READ_LIMIT = 64 * 1024;

/**
 * POST exact bytes to a webhook URL. A 2xx within the timeout is delivered; anything else (3xx: redirects
 * are never followed, 4xx, 5xx, timeout, network error) is a failure. Reads at most 64 KiB of the answer.
 */
export function postWebhook(input: {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
}): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const problem = urlProblem(input.url);
  if (problem) {
    return Promise.resolve({
      ok: false,
      status: null,
      latencyMs: 0,
      excerpt: "",
      error: `url ${problem}`,
      retryAfterMs: null,
    });
  }
  const url = new URL(input.url);
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: Omit<PostResult, "latencyMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, latencyMs: elapsed() });
    };
    const req = client.request(
      url,
      {
        method: "POST",
        agent: false,
        lookup: guardedLookup as never,
        headers: { ...input.headers, "content-length": Buffer.byteLength(input.body) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          if (size < READ_LIMIT) chunks.push(chunk);
          size += chunk.length;
          if (size >= READ_LIMIT) res.destroy();
        });
        const done = () => {
          const status = res.statusCode ?? 0;
          const header = res.headers["retry-after"];
          finish({
            ok: status >= 200 && status < 300,
            status,
            excerpt: Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString("utf8"),
            error:
              status >= 300 && status < 400
                ? `redirect to ${String(res.headers.location ?? "?").slice(0, 200)} not followed`
                : null,
            retryAfterMs:
              status === 429 || status === 503
                ? parseRetryAfter(Array.isArray(header) ? header[0] : header)
                : null,
          });
        };
        res.on("end", done);
        res.on("close", done);
        res.on("error", done);
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      finish({
        ok: false,
        status: null,
        excerpt: "",
        error: `timed out after ${input.timeoutMs} ms`,
        retryAfterMs: null,
      });
    }, input.timeoutMs);
    req.on("error", (err: NodeJS.ErrnoException) => {
      finish({
        ok: false,
        status: null,
        excerpt: "",
        error: `${err.code ?? "error"}: ${err.message}`.slice(0, 300),
        retryAfterMs: null,
      });
    });
    req.end(input.body);
  });
}
