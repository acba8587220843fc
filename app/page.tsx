import { deploymentMode, env } from "@/lib/env";

export const dynamic = "force-dynamic";

const ENDPOINTS: Array<[string, string, string]> = [
  ["POST", "/v1/payment/initialize", "secret key"],
  ["GET", "/v1/payment/verify/{reference}", "secret key"],
  ["GET", "/v1/payment/checkout/verify", "access code"],
  ["GET", "/v1/payment/checkout/banks?country=NG", "access code"],
  ["POST", "/v1/merchants/auth/signup", "none"],
  ["POST", "/v1/merchants/auth/login", "none"],
  ["POST", "/v1/merchants/keys/roll", "session token"],
  ["GET / PUT", "/v1/merchants/settings", "session token"],
  ["GET", "/v1/merchants/transactions", "session token"],
];

export default function Home() {
  const mode = deploymentMode();
  const base = env().PUBLIC_BASE_URL;
  return (
    <main className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-3xl font-semibold tracking-tight">Paygate</h1>
      <p className="mt-2 text-slate-700">
        Hosted checkout and payment collection API.{" "}
        <span className="rounded bg-amber-100 px-2 py-0.5 text-sm font-medium text-amber-900">
          {mode === "test" ? "Staging: test mode" : "Production: live mode"}
        </span>
      </p>
      <p className="mt-4 text-slate-700">
        Merchants:{" "}
        <a
          href="/dashboard/login"
          className="font-semibold text-teal-800 underline underline-offset-2 hover:text-teal-950"
        >
          sign in to the console
        </a>{" "}
        or{" "}
        <a
          href="/dashboard/signup"
          className="font-semibold text-teal-800 underline underline-offset-2 hover:text-teal-950"
        >
          create an account
        </a>
        .
      </p>
      <h2 className="mt-8 text-xl font-semibold">Create a payment</h2>
      <pre className="mt-2 overflow-x-auto rounded-lg bg-slate-900 p-4 text-sm text-slate-100">
        {`curl -X POST ${base}/v1/payment/initialize \\
  -H "x-api-key: sk_test_..." -H "content-type: application/json" \\
  -d '{"amount":"5000.00","email":"customer@example.com"}'`}
      </pre>
      <h2 className="mt-8 text-xl font-semibold">Endpoints</h2>
      <table className="mt-2 w-full text-left text-sm">
        <thead>
          <tr className="border-b border-slate-300">
            <th scope="col" className="py-2 pr-4">
              Method
            </th>
            <th scope="col" className="py-2 pr-4">
              Path
            </th>
            <th scope="col" className="py-2">
              Credential
            </th>
          </tr>
        </thead>
        <tbody>
          {ENDPOINTS.map(([method, path, auth]) => (
            <tr key={`${method} ${path}`} className="border-b border-slate-200">
              <td className="py-2 pr-4 font-mono">{method}</td>
              <td className="py-2 pr-4 font-mono break-all">{path}</td>
              <td className="py-2">{auth}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </main>
  );
}
