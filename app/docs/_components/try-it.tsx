"use client";

import { useId, useState } from "react";
import { buttonPrimary, inputClass } from "@/components/ui/styles";

export type Credential = "none" | "secret_key" | "access_code" | "session";

const CREDENTIAL_LABEL: Record<Exclude<Credential, "none">, string> = {
  secret_key: "Secret key (sent as x-api-key)",
  access_code: "Access code (sent as x-access-code)",
  session: "Session token (sent as Authorization: Bearer)",
};

type Answer = { status: number; ms: number; body: string } | { error: string };

/**
 * The try-it console of one operation: fill in the credential, path parameters, query and body, and send the
 * request from this page to this deployment; the answer is shown as it came.
 */
export function TryIt({
  method,
  path,
  credential,
  pathParams,
  hasQuery,
  example,
}: {
  method: string;
  path: string;
  credential: Credential;
  pathParams: string[];
  hasQuery: boolean;
  example?: string;
}) {
  const id = useId();
  const [secret, setSecret] = useState("");
  const [params, setParams] = useState<Record<string, string>>({});
  const [query, setQuery] = useState("");
  const [body, setBody] = useState(example ?? "");
  const [pending, setPending] = useState(false);
  const [answer, setAnswer] = useState<Answer | null>(null);

  async function send(event: React.FormEvent) {
    event.preventDefault();
    setPending(true);
    const url =
      path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? "")) +
      (query.trim() ? `?${query.trim().replace(/^\?/, "")}` : "");
    const headers: Record<string, string> = {};
    if (credential === "secret_key") headers["x-api-key"] = secret.trim();
    if (credential === "access_code") headers["x-access-code"] = secret.trim();
    if (credential === "session") headers.authorization = `Bearer ${secret.trim()}`;
    const sendsBody = method !== "GET";
    if (sendsBody) headers["content-type"] = "application/json";
    const started = performance.now();
    try {
      const res = await fetch(url, { method, headers, body: sendsBody ? body || "{}" : undefined });
      const text = await res.text();
      let shown = text;
      try {
        shown = JSON.stringify(JSON.parse(text), null, 2);
      } catch {
        // not JSON: shown as it came
      }
      setAnswer({ status: res.status, ms: Math.round(performance.now() - started), body: shown });
    } catch (err) {
      setAnswer({ error: err instanceof Error ? err.message : String(err) });
    } finally {
      setPending(false);
    }
  }

  return (
    <form onSubmit={send} className="mt-3 space-y-3 rounded-lg bg-slate-50 p-3 ring-1 ring-slate-200">
      <h3 className="text-sm font-semibold text-slate-900">Try it</h3>
      {credential !== "none" && (
        <div>
          <label htmlFor={`${id}-credential`} className="block text-sm font-medium text-slate-800">
            {CREDENTIAL_LABEL[credential]}
          </label>
          <input
            id={`${id}-credential`}
            className={inputClass}
            autoComplete="off"
            spellCheck={false}
            value={secret}
            onChange={(e) => setSecret(e.target.value)}
          />
        </div>
      )}
      {pathParams.map((name) => (
        <div key={name}>
          <label htmlFor={`${id}-${name}`} className="block text-sm font-medium text-slate-800">
            {name} (in the path)
          </label>
          <input
            id={`${id}-${name}`}
            className={inputClass}
            spellCheck={false}
            value={params[name] ?? ""}
            onChange={(e) => setParams({ ...params, [name]: e.target.value })}
          />
        </div>
      ))}
      {hasQuery && (
        <div>
          <label htmlFor={`${id}-query`} className="block text-sm font-medium text-slate-800">
            Query string
          </label>
          <input
            id={`${id}-query`}
            className={inputClass}
            placeholder="limit=20"
            spellCheck={false}
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
        </div>
      )}
      {method !== "GET" && (
        <div>
          <label htmlFor={`${id}-body`} className="block text-sm font-medium text-slate-800">
            Body (JSON)
          </label>
          <textarea
            id={`${id}-body`}
            className={`${inputClass} h-32 font-mono text-xs`}
            spellCheck={false}
            value={body}
            onChange={(e) => setBody(e.target.value)}
          />
        </div>
      )}
      <button type="submit" className={buttonPrimary} disabled={pending}>
        {pending ? "Sending…" : `Send ${method} ${path}`}
      </button>
      <div aria-live="polite">
        {answer &&
          ("error" in answer ? (
            <p className="text-sm text-red-800">The request did not complete: {answer.error}</p>
          ) : (
            <>
              <p className="text-sm font-medium text-slate-900">
                Answer: <span data-testid="try-status">{answer.status}</span> in {answer.ms} ms
              </p>
              <pre
                // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable block must be reachable by keyboard
                tabIndex={0}
                className="mt-1 max-h-80 overflow-auto rounded-md bg-slate-900 p-3 text-xs text-slate-50"
              >
                {answer.body}
              </pre>
            </>
          ))}
      </div>
    </form>
  );
}
