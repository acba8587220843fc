// The service's process: Next.js behind a small node:http front that records the caller's address.
// Next's own server keeps a client-sent X-Forwarded-For as the client address, which would let anyone
// dodge the per-address rate limits; here the socket's address is used unless TRUST_PROXY is set.
import { createServer } from "node:http";
import next from "next";

const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOSTNAME || "0.0.0.0";
const trustProxy = process.env.TRUST_PROXY === "1" || process.env.TRUST_PROXY === "true";
const CLIENT_ADDRESS_HEADER = "x-paygate-client-address";

function clientAddress(req) {
  if (trustProxy) {
    const forwarded = req.headers["x-forwarded-for"];
    const hops = (Array.isArray(forwarded) ? forwarded.join(",") : (forwarded ?? "")).split(",");
    const last = hops
      .map((h) => h.trim())
      .filter(Boolean)
      .at(-1);
    if (last) return last.slice(0, 100);
  }
  return req.socket.remoteAddress ?? "unknown";
}

const app = next({ dev: false, hostname, port });
const handle = app.getRequestHandler();
await app.prepare();

const server = createServer((req, res) => {
  req.headers[CLIENT_ADDRESS_HEADER] = clientAddress(req);
  handle(req, res).catch((err) => {
    console.error(
      JSON.stringify({ level: "error", msg: "request handler failed", error: String(err?.message ?? err) }),
    );
    if (!res.headersSent) {
      res.writeHead(500, { "content-type": "application/json; charset=utf-8" });
      res.end(
        JSON.stringify({
          status: "failed",
          error: "internal_error",
          message: "Something went wrong on our side.",
        }),
      );
    }
  });
});
server.keepAliveTimeout = 65_000;
server.listen(port, hostname, () => {
  console.log(JSON.stringify({ level: "info", msg: "listening", url: `http://${hostname}:${port}` }));
});

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 5_000).unref();
  });
}
