import { createServer, request as httpRequest, type Server } from "node:http";

/** One answer of `/v1` that passed through the proxy. */
export type RecordedAnswer = {
  method: string;
  path: string;
  status: number;
  body: Buffer;
  contentType: string;
};

/**
 * A pass-through HTTP proxy on 127.0.0.1 that keeps every answer of `/v1/*` (method, path, status, body), so a
 * run that holds nothing of the repository (the QA kit's examples) can still have each answer it got checked
 * against the OpenAPI document afterwards. Bodies are streamed through unchanged; only copies are kept.
 */
export async function startRecordingProxy(input: { port: number; target: () => string }) {
  const answers: RecordedAnswer[] = [];
  const server: Server = createServer((req, res) => {
    const target = new URL(req.url ?? "/", input.target());
    const upstream = httpRequest(
      target,
      // Uncompressed, so the copies kept can be read as JSON. The Host the browser asked for is kept, as a
      // reverse proxy keeps it: a form the page posts to itself (a server action) is checked by its Origin
      // against that host, and would be refused as cross-site against the upstream's.
      { method: req.method, headers: { ...req.headers, "accept-encoding": "identity" } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        const chunks: Buffer[] = [];
        answer.on("data", (c: Buffer) => {
          chunks.push(c);
          res.write(c);
        });
        answer.on("end", () => {
          res.end();
          if (target.pathname.startsWith("/v1/")) {
            answers.push({
              method: req.method ?? "GET",
              path: `${target.pathname}${target.search}`,
              status: answer.statusCode ?? 0,
              body: Buffer.concat(chunks),
              contentType: String(answer.headers["content-type"] ?? ""),
            });
          }
        });
      },
    );
    upstream.on("error", () => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end("upstream unreachable");
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(input.port, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${input.port}`,
    answers,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
