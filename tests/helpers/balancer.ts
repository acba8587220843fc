import { createServer, request as httpRequest, type Server } from "node:http";

/**
 * A small round-robin HTTP load balancer, as a deployment puts in front of several instances: each request
 * goes to the next upstream; one whose connection is refused (an instance that is down) is tried on the next,
 * since nothing reached it. A request cut off after it was sent (an instance killed mid-request) answers 502,
 * and the client decides whether to retry, as it would behind a real balancer. Client headers (the test's
 * `X-Forwarded-For`) pass through; upstreams run with TRUST_PROXY=1.
 */
export type Balancer = {
  url: string;
  /** How many requests each upstream was sent. */
  sent: number[];
  close: () => Promise<void>;
};

export async function startBalancer(upstreams: string[]): Promise<Balancer> {
  let next = 0;
  const sent = upstreams.map(() => 0);
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const first = next++ % upstreams.length;
      const tryUpstream = (offset: number) => {
        const index = (first + offset) % upstreams.length;
        const target = new URL(req.url ?? "/", upstreams[index]);
        sent[index] = (sent[index] ?? 0) + 1;
        const upstream = httpRequest(
          target,
          { method: req.method, headers: { ...req.headers, host: target.host }, agent: false },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        upstream.on("error", (err: NodeJS.ErrnoException) => {
          if (err.code === "ECONNREFUSED" && offset + 1 < upstreams.length) return tryUpstream(offset + 1);
          if (!res.headersSent) {
            res.writeHead(502, { "content-type": "text/plain" });
            res.end(`balancer: upstream failed (${err.code ?? err.message})`);
          } else res.destroy();
        });
        upstream.end(body);
      };
      tryUpstream(0);
    });
  });
  // Longer than any client keeps an idle connection: the client, not the balancer, closes it, so a request
  // never meets a connection the balancer has just closed.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    sent,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
