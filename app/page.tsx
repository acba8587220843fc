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
  ["POST", "/v1/merchants/payment-links", "session token"],
];

const primary =
  "inline-flex items-center justify-center rounded-lg bg-teal-700 px-4 py-2.5 font-semibold text-white shadow-sm hover:bg-teal-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900";
const secondary =
  "inline-flex items-center justify-center rounded-lg bg-white px-4 py-2.5 font-semibold text-slate-800 ring-1 ring-slate-300 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900";

/**
 * The front door: what Paygate is, the way to try it (the demo store, in test mode), the quick start and the
 * API at a glance. Nothing here is wider than a phone: code wraps instead of scrolling the page sideways.
 */
export default function Home() {
  const test = deploymentMode() === "test";
  const base = env().PUBLIC_BASE_URL;
  return (
    <main className="mx-auto w-full max-w-3xl px-4 py-8 sm:py-12">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm font-semibold tracking-wide text-teal-800 uppercase">Paygate</p>
        <span className="rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-semibold text-amber-900 ring-1 ring-amber-300">
          {test ? "Staging: test mode" : "Production: live mode"}
        </span>
      </div>
      <h1 className="mt-3 text-3xl font-semibold tracking-tight text-slate-900 sm:text-4xl">Paygate</h1>
      <p className="mt-3 max-w-2xl text-lg text-slate-700">
        Take payments by card, bank transfer, bank payment and USSD on a hosted checkout page. Your server
        creates a payment through the API, your customer pays on the checkout, and your server verifies the
        result before it fulfils the order. Payment links take payments without any code.
      </p>
      <nav aria-label="Get started" className="mt-6 flex flex-wrap gap-3">
        {test && (
          <a href="/demo" className={primary}>
            Try the demo store
          </a>
        )}
        <a href="#quick-start" className={test ? secondary : primary}>
          Quick start
        </a>
        <a href="/docs" className={secondary}>
          API reference
        </a>
        <a href="/dashboard/login" className={secondary}>
          Merchant console
        </a>
      </nav>
      <p className="mt-3 text-sm text-slate-700">
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
        . Developers: the{" "}
        <a
          href="/docs"
          className="font-semibold text-teal-800 underline underline-offset-2 hover:text-teal-950"
        >
          API reference
        </a>{" "}
        with a try-it console, and guides in the repository's <code className="font-mono text-sm">docs/</code>
        .
      </p>
      {test && (
        <p className="mt-3 text-sm text-slate-600">
          The demo store is a pretend shop: pick a product and pay with a test card, a sandbox transfer or
          USSD. No real money moves.
        </p>
      )}

      <section aria-labelledby="quick-start" className="mt-10">
        <h2 id="quick-start" className="text-xl font-semibold text-slate-900">
          Quick start
        </h2>
        <ol className="mt-3 list-decimal space-y-3 pl-5 text-slate-700">
          <li>
            Sign up with <code className="font-mono text-sm break-all">POST /v1/merchants/auth/signup</code>:
            the answer holds your test and live secret keys.
          </li>
          <li>
            Create a payment with your secret key; the answer&apos;s{" "}
            <code className="font-mono text-sm">checkoutUrl</code> is where you send the customer:
            <pre className="mt-2 rounded-lg bg-slate-900 p-4 text-sm break-all whitespace-pre-wrap text-slate-100">
              {`curl -X POST ${base}/v1/payment/initialize \\
  -H "x-api-key: sk_test_..." -H "content-type: application/json" \\
  -d '{"amount":"5000.00","email":"customer@example.com","callbackUrl":"https://your.shop/return"}'`}
            </pre>
          </li>
          <li>
            When the customer comes back to your <code className="font-mono text-sm">callbackUrl</code>,
            verify on your server with{" "}
            <code className="font-mono text-sm break-all">GET /v1/payment/verify/{"{reference}"}</code> and
            fulfil only when the status is <code className="font-mono text-sm">success</code> and the amount
            is the order&apos;s. Webhooks tell your server too.
          </li>
        </ol>
        <p className="mt-4 text-sm text-slate-600">
          The full reference (every endpoint, its errors and a try-it console) is the{" "}
          <a
            href="/docs"
            className="font-semibold text-teal-800 underline underline-offset-2 hover:text-teal-950"
          >
            API reference
          </a>
          ; money rules, webhooks, payment links and configuration are in the repository&apos;s{" "}
          <code className="font-mono text-sm">docs/</code>.
        </p>
      </section>

      <section aria-labelledby="api" className="mt-10">
        <h2 id="api" className="text-xl font-semibold text-slate-900">
          API at a glance
        </h2>
        <table className="mt-3 w-full table-fixed text-left text-sm">
          <thead>
            <tr className="border-b border-slate-300">
              <th scope="col" className="w-20 py-2 pr-3 sm:w-24">
                Method
              </th>
              <th scope="col" className="py-2 pr-3">
                Path
              </th>
              <th scope="col" className="w-24 py-2 sm:w-32">
                Credential
              </th>
            </tr>
          </thead>
          <tbody>
            {ENDPOINTS.map(([method, path, auth]) => (
              <tr key={`${method} ${path}`} className="border-b border-slate-200 align-top">
                <td className="py-2 pr-3 font-mono">{method}</td>
                <td className="py-2 pr-3 font-mono [overflow-wrap:anywhere]">{path}</td>
                <td className="py-2">{auth}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <p className="mt-10 text-center text-xs text-slate-600">
        Paygate · hosted checkout and payment collection
      </p>
    </main>
  );
}
