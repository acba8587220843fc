import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/**
 * A fault-injecting HTTP proxy in front of a real server, for client retry tests. Each request is numbered
 * (from 1) and `rule` decides what happens to it:
 *  - "forward": passed to the server and its answer passed back;
 *  - "drop-after-forward": passed to the server (which does the work), then the connection is cut before
 *    the answer reaches the client (a network error the client cannot tell from one before the work);
 *  - "drop": the connection is cut at once, nothing reaches the server;
 *  - "hang": never answered (the client's timeout must end it);
 *  - a reply: answered by the proxy itself (a 503 with Retry-After, a 429, a 500).
 * Every request is recorded with the answer's status and headers, when there was one.
 */
export type FaultRule =
  | "forward"
  | "drop-after-forward"
  | "drop"
  | "hang"
  | { status: number; headers?: Record<string, string>; body?: unknown };

export type ProxiedRequest = {
  n: number;
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
  at: number;
  rule: FaultRule;
  answer?: { status: number; headers: Record<string, string | string[] | undefined>; body: string };
};

export type FaultProxy = {
  url: string;
  requests: ProxiedRequest[];
  setRule: (rule: (req: ProxiedRequest) => FaultRule) => void;
  close: () => Promise<void>;
};

export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const requests: ProxiedRequest[] = [];
  const sockets = new Set<Socket>();
  let rule: (req: ProxiedRequest) => FaultRule = () => "forward";
  const upstream = new URL(target);

  const forward = (req: ProxiedRequest) =>
    new Promise<NonNullable<ProxiedRequest["answer"]>>((resolve, reject) => {
      const out = httpRequest(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.path,
          // Plain answers, so the proxy can read and record them (the server compresses when asked).
          headers: { ...req.headers, host: upstream.host, "accept-encoding": "identity" },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(chunks).toString("utf8"),
            }),
          );
          res.on("error", reject);
        },
      );
      out.on("error", reject);
      out.end(req.body);
    });

  const server = createServer((incoming: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (c: Buffer) => chunks.push(c));
    incoming.on("end", async () => {
      const req: ProxiedRequest = {
        n: requests.length + 1,
        method: incoming.method ?? "GET",
        path: incoming.url ?? "/",
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        at: Date.now(),
        rule: "forward",
      };
      requests.push(req);
      req.rule = rule(req);
      const r = req.rule;
      if (r === "hang") return;
      if (r === "drop") {
        incoming.socket.destroy();
        return;
      }
      if (typeof r === "object") {
        const body = r.body === undefined ? "" : JSON.stringify(r.body);
        req.answer = { status: r.status, headers: r.headers ?? {}, body };
        res.writeHead(r.status, { "content-type": "application/json", ...r.headers }).end(body);
        return;
      }
      try {
        const answer = await forward(req);
        req.answer = answer;
        if (r === "drop-after-forward") {
          incoming.socket.destroy();
          return;
        }
        const headers = { ...answer.headers };
        delete headers["transfer-encoding"];
        delete headers.connection;
        delete headers["keep-alive"];
        res.writeHead(answer.status, headers).end(answer.body);
      } catch {
        incoming.socket.destroy();
      }
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    setRule: (next) => {
      rule = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
